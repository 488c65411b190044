// Implements: Endpoints: sign-in routes (request bodies; the spec leaves them to us, see docs/api-notes.md).
import { Type, type Static } from "@sinclair/typebox";

/**
 * Only a string `email` is required: any string gets the neutral answer (an address that is not
 * one, however long, is simply not mailed), and a `next` of any shape is read by `safeNext`.
 */
export const RequestLinkBody = Type.Object({
  email: Type.String(),
  /** Same-origin path to land on after the link is redeemed; anything else becomes `/`. */
  next: Type.Optional(Type.Unknown()),
});
export type RequestLinkBody = Static<typeof RequestLinkBody>;

export const ExchangeBody = Type.Object({ id_token: Type.String({ maxLength: 16384 }) });
export type ExchangeBody = Static<typeof ExchangeBody>;

/** The one answer `POST /auth/request-link` ever gives. */
export const NEUTRAL_LINK_ANSWER = {
  ok: true,
  message: "If that address can sign in, a sign-in link is on its way. It works once and expires soon.",
} as const;
