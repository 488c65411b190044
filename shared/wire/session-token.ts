// Implements: POST /v1/streaming.create_token's body and answer (Session token: stream-only, scope
// tts), as TypeBox schemas for the box's route and types for the client library.
import { type Static, Type } from "@sinclair/typebox";

export const SessionTokenBody = Type.Object({
  ttl_seconds: Type.Optional(Type.Integer({ default: 300 })),
  ttl: Type.Optional(Type.Integer()),
});
export type SessionTokenBody = Static<typeof SessionTokenBody>;

export const SessionToken = Type.Object({ token: Type.String(), expires_at: Type.Integer(), scope: Type.Literal("tts") });
export type SessionToken = Static<typeof SessionToken>;

/** One of the three routes wrapping their payload in `data`. */
export const SessionTokenAnswer = Type.Object({ data: SessionToken });
export type SessionTokenAnswer = Static<typeof SessionTokenAnswer>;
