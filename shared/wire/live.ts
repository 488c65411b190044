// Implements: the bodies and answers of POST /connect, POST /offer and POST /api/talk (Box:
// signalling and engine; Box: conversation and session), as TypeBox schemas: the box's routes
// validate and document with them, the client library takes their types.
import { type Static, Type } from "@sinclair/typebox";

const Answer = { sdp: Type.String(), type: Type.Literal("answer"), avatar: Type.String() };

export const ConnectBody = Type.Object({
  sdp: Type.String(),
  type: Type.String(),
  avatar: Type.Optional(Type.String()),
  /** The four facts of ClientContext (client-context.ts), each checked on its own by the box. */
  client_context: Type.Optional(
    Type.Object({
      timezone: Type.Optional(Type.String()),
      name: Type.Optional(Type.String()),
      location: Type.Optional(Type.String()),
      locale: Type.Optional(Type.String()),
    }),
  ),
});
export type ConnectBody = Static<typeof ConnectBody>;

export const ConnectAnswer = Type.Object({ ...Answer, silence: Type.String(), idle_stand_in: Type.Boolean() });
export type ConnectAnswer = Static<typeof ConnectAnswer>;

export const OfferBody = Type.Object({
  sdp: Type.String(),
  type: Type.String(),
  emotion_responsive: Type.Optional(Type.Boolean()),
  audio: Type.Optional(Type.String()),
  avatar: Type.Optional(Type.String()),
  tone: Type.Optional(Type.String()),
});
export type OfferBody = Static<typeof OfferBody>;

export const OfferAnswer = Type.Object({ ...Answer, emotion: Type.String(), transcript: Type.String() });
export type OfferAnswer = Static<typeof OfferAnswer>;

/** `content` is accepted in place of `text`. */
export const TalkBody = Type.Object({
  text: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  voice: Type.Optional(Type.String()),
  tone: Type.Optional(Type.String()),
});
export type TalkBody = Static<typeof TalkBody>;

export const TalkAnswer = Type.Object({ ok: Type.Literal(true), spoken: Type.String() });
export type TalkAnswer = Static<typeof TalkAnswer>;
