// Implements: GET /conversations, GET/DELETE /conversations/{id}, POST /api/chat/reset (thin routes).
import { Type } from "@sinclair/typebox";
import { route, type RouteDef } from "../http/route.ts";
import type { ConversationService } from "./service.ts";

const Row = Type.Object({
  id: Type.String(),
  title: Type.String(),
  preview: Type.String(),
  turns: Type.Integer(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});
const Turn = Type.Object({
  role: Type.Union([Type.Literal("user"), Type.Literal("assistant")]),
  text: Type.String(),
  ts: Type.Integer(),
  tone: Type.Null(),
});
const FlatError = Type.Object({ error: Type.String(), code: Type.Optional(Type.String()) });

export function conversationRoutes(service: ConversationService): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/conversations",
      summary: "List this credential's conversations, newest first",
      envelope: "flat",
      query: Type.Object({ limit: Type.Optional(Type.String()), cursor: Type.Optional(Type.String()) }),
      responses: { 200: Type.Object({ items: Type.Array(Row), next_cursor: Type.Union([Type.String(), Type.Null()]) }), 400: FlatError },
      handler: ({ principal, query }) => service.list(principal.subject, query.get("limit"), query.get("cursor")),
    }),
    route({
      method: "GET",
      path: "/conversations/:id",
      summary: "Read one conversation's transcript",
      envelope: "flat",
      responses: {
        200: Type.Union([
          Type.Object({ ...Row.properties, turns: Type.Array(Turn) }),
          Type.Object({ id: Type.String(), turns: Type.Array(Turn, { maxItems: 0 }), transcript_unavailable: Type.Literal(true) }),
        ]),
        404: FlatError,
      },
      handler: ({ principal, params }) => service.read(principal.subject, params.id),
    }),
    route({
      method: "DELETE",
      path: "/conversations/:id",
      summary: "Delete a conversation (index row, then transcript)",
      envelope: "flat",
      responses: { 200: Type.Object({ ok: Type.Literal(true), id: Type.String() }), 404: FlatError },
      handler: ({ principal, params }) => service.delete(principal.subject, params.id),
    }),
    route({
      method: "POST",
      path: "/api/chat/reset",
      summary: "Start a new conversation for this credential",
      envelope: "flat",
      responses: { 200: Type.Object({ ok: Type.Literal(true), data: Type.Object({ conversation_id: Type.Union([Type.String(), Type.Null()]) }) }) },
      handler: async ({ principal }) => ({ ok: true, data: { conversation_id: await service.reset(principal.subject) } }),
    }),
  ];
}
