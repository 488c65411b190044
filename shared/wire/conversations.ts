// Implements: the conversation resources of GET /conversations, GET/DELETE /conversations/{id} and
// POST /api/chat/reset as TypeBox models: the box's routes declare them, the client library reads
// their types. The list's `turns` is a count, the single read's an array.
import { Type, type Static } from "@sinclair/typebox";

export const ConversationRowSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  preview: Type.String(),
  turns: Type.Integer(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});
export const ConversationTurnSchema = Type.Object({
  role: Type.Union([Type.Literal("user"), Type.Literal("assistant")]),
  text: Type.String(),
  ts: Type.Integer(),
  tone: Type.Null(),
});
export const ConversationPageSchema = Type.Object({
  items: Type.Array(ConversationRowSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
/** A transcript, or the row alone when its transcript file is gone. */
export const ConversationSchema = Type.Union([
  Type.Object({ ...ConversationRowSchema.properties, turns: Type.Array(ConversationTurnSchema) }),
  Type.Object({
    id: Type.String(),
    turns: Type.Array(ConversationTurnSchema, { maxItems: 0 }),
    transcript_unavailable: Type.Literal(true),
  }),
]);
export const DeletedConversationSchema = Type.Object({ ok: Type.Literal(true), id: Type.String() });
export const ChatResetAnswerSchema = Type.Object({
  ok: Type.Literal(true),
  data: Type.Object({ conversation_id: Type.Union([Type.String(), Type.Null()]) }),
});

export type ConversationRow = Static<typeof ConversationRowSchema>;
export type ConversationTurn = Static<typeof ConversationTurnSchema>;
export type ConversationPage = Static<typeof ConversationPageSchema>;
export type Conversation = Static<typeof ConversationSchema>;
export type DeletedConversation = Static<typeof DeletedConversationSchema>;
export type ChatResetAnswer = Static<typeof ChatResetAnswerSchema>;
