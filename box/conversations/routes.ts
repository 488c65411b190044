// Implements: GET /conversations, GET/DELETE /conversations/{id}, POST /api/chat/reset (thin routes).
import { Type } from "@sinclair/typebox";
import { route, type RouteDef } from "../http/route.ts";
import type { ConversationService } from "./service.ts";
import {
  ChatResetAnswerSchema,
  ConversationPageSchema,
  ConversationSchema,
  DeletedConversationSchema,
} from "../../shared/wire/conversations.ts";

const FlatError = Type.Object({ error: Type.String(), code: Type.Optional(Type.String()) });

export function conversationRoutes(service: ConversationService): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/conversations",
      summary: "List this credential's conversations, newest first",
      envelope: "flat",
      query: Type.Object({ limit: Type.Optional(Type.String()), cursor: Type.Optional(Type.String()) }),
      responses: { 200: ConversationPageSchema, 400: FlatError },
      handler: ({ principal, query }) => service.list(principal.subject, query.get("limit"), query.get("cursor")),
    }),
    route({
      method: "GET",
      path: "/conversations/:id",
      summary: "Read one conversation's transcript",
      envelope: "flat",
      responses: {
        200: ConversationSchema,
        404: FlatError,
      },
      handler: ({ principal, params }) => service.read(principal.subject, params.id),
    }),
    route({
      method: "DELETE",
      path: "/conversations/:id",
      summary: "Delete a conversation (index row, then transcript)",
      envelope: "flat",
      responses: { 200: DeletedConversationSchema, 404: FlatError },
      handler: ({ principal, params }) => service.delete(principal.subject, params.id),
    }),
    route({
      method: "POST",
      path: "/api/chat/reset",
      summary: "Start a new conversation for this credential",
      envelope: "flat",
      responses: { 200: ChatResetAnswerSchema },
      handler: async ({ principal }) => ({ ok: true, data: { conversation_id: await service.reset(principal.subject) } }),
    }),
  ];
}
