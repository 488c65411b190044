// Implements: Endpoints: sign-in routes (request bodies; the spec leaves them to us, see README-portal.md).
import { Type, type Static } from "@sinclair/typebox";

export const RequestLinkBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
  /** Same-origin path to land on after the link is redeemed; default `/`. */
  next: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type RequestLinkBody = Static<typeof RequestLinkBody>;

export const ExchangeBody = Type.Object({ id_token: Type.String({ maxLength: 16384 }) });
export type ExchangeBody = Static<typeof ExchangeBody>;

/** The one answer `POST /auth/request-link` ever gives. */
export const NEUTRAL_LINK_ANSWER = {
  ok: true,
  message: "If that address can sign in, a sign-in link is on its way. It works once and expires soon.",
} as const;
