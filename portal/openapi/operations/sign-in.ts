// Implements: the Sign-in operations: mailing a link, redeeming it, trading an ID token for the
// session cookie, and logging out. One group of the portal's OpenAPI route table (assembled in
// ../operations.ts).
import { ExchangeBody, RequestLinkBody } from "../../sign-in/schema.ts";
import { ExchangeAnswer, LinkAnswer, OkAnswer } from "../schemas.ts";
import { raw, type PortalOperation } from "./operation.ts";

export const SIGN_IN_OPERATIONS: PortalOperation[] = [
  {
    method: "POST",
    route: "/auth/request-link",
    tag: "Sign-in",
    summary: "Mail a one-time sign-in link (always the same neutral answer)",
    auth: "none",
    body: RequestLinkBody,
    responses: { 200: LinkAnswer },
    refusals: { 400: ["invalid_body"], 415: ["unsupported_media_type"] },
  },
  {
    method: "GET",
    route: "/auth/callback",
    tag: "Sign-in",
    summary: "Redeem the mailed link: sets the session cookie and redirects",
    auth: "none",
    responses: { 303: raw(null, "Redirect to the link's `next` path, with the session cookie set") },
    refusals: { 400: ["invalid_link"] },
  },
  {
    method: "POST",
    route: "/auth/session/exchange",
    tag: "Sign-in",
    summary: "Trade an identity-provider ID token (body or Bearer) for the session cookie",
    auth: "none",
    body: ExchangeBody,
    bodyOptional: true,
    responses: { 200: ExchangeAnswer },
    refusals: { 400: ["invalid_body"], 415: ["unsupported_media_type"] },
  },
  {
    method: "POST",
    route: "/auth/logout",
    tag: "Sign-in",
    summary: "End the session and clear its cookie",
    auth: "none",
    responses: { 200: OkAnswer },
  },
];
