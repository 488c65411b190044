// Implements: the bodies of POST /api/chat and POST /api/chat/tool_result and the latter's answer
// (Box: conversation and session; Tool call lifecycle), as TypeBox schemas for the box's routes and
// types for the client library. The turn's own frames are in turn-events.ts.
import { type Static, Type } from "@sinclair/typebox";

export const ChatBody = Type.Object({
  message: Type.String(),
  voice: Type.Optional(Type.String()),
  voice_provider: Type.Optional(Type.String()),
  avatar: Type.Optional(Type.String()),
  stream: Type.Optional(Type.Boolean()),
});
export type ChatBody = Static<typeof ChatBody>;

export const ToolResultBody = Type.Object({
  call_id: Type.String(),
  ok: Type.Boolean(),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.String()),
});
export type ToolResultBody = Static<typeof ToolResultBody>;

/** A result for an unknown, repeated, late or foreign call is ignored, and said so. */
export const ToolResultDisposition = Type.Union([
  Type.Object({ ok: Type.Literal(true), disposition: Type.Literal("accepted") }),
  Type.Object({ ok: Type.Literal(false), disposition: Type.Literal("ignored"), reason: Type.String() }),
]);
export type ToolResultDisposition = Static<typeof ToolResultDisposition>;
