// Implements: Endpoints: sign-in routes (`/auth/request-link`, `/auth/callback`,
// `/auth/session/exchange`, `/auth/logout`). Bodies are documented in docs/api-notes.md ("Portal: Sign-in routes").
import { Value } from "@sinclair/typebox/value";
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ApiError } from "../../shared/errors/api-error.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { readJsonObject } from "../http/read-body.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import type { IdentityService } from "../identity/service.ts";
import { SESSION_COOKIE, sessionCookieAttributes } from "../identity/session-cookie.ts";
import { ExchangeBody, NEUTRAL_LINK_ANSWER, RequestLinkBody } from "./schema.ts";
import type { SignInService } from "./service.ts";

export interface SignInRouteDeps {
  signIn: SignInService;
  identity: IdentityService;
  /** Base of the links we mail; never taken from the request's Host when configured. */
  publicUrl: string | null;
}

/** JSON only: a cross-site HTML form cannot send it, so these POSTs cannot be forged by a page. */
function requireJson(c: Context): void {
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) {
    throw new ApiError(415, "unsupported_media_type", "Send the body as application/json.");
  }
}

export function signInRoutes(deps: SignInRouteDeps): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();
  const setSession = (c: Context, cookie: string) =>
    setCookie(c, SESSION_COOKIE, cookie, sessionCookieAttributes(c.req.url, deps.identity.sessionTtlSeconds));

  app.post("/auth/request-link", async (c) => {
    requireJson(c);
    const body = await readJsonObject(c);
    if (!Value.Check(RequestLinkBody, body)) throw new ApiError(400, "invalid_body", 'Send {"email": string}.');
    await deps.signIn.requestLink(body.email, body.next, deps.publicUrl ?? new URL(c.req.url).origin);
    return c.json(NEUTRAL_LINK_ANSWER, 200);
  });

  app.get("/auth/callback", async (c) => {
    let redeemed: Awaited<ReturnType<SignInService["redeem"]>>;
    try {
      redeemed = await deps.signIn.redeem(c.req.query("token"));
    } catch (err) {
      // A person who opened a used or expired link gets the studio's sign-in page saying so, not JSON.
      if (err instanceof ApiError && err.code === "invalid_link" && /\btext\/html\b/i.test(c.req.header("accept") ?? "")) {
        return c.redirect("/studio/sign-in?link=invalid", 303);
      }
      throw err;
    }
    const { cookie, next } = redeemed;
    setSession(c, cookie);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    return c.redirect(next, 303);
  });

  app.post("/auth/session/exchange", async (c) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
    let idToken = bearer;
    if (!idToken) {
      requireJson(c);
      const body = await readJsonObject(c);
      if (!Value.Check(ExchangeBody, body)) throw new ApiError(400, "invalid_body", 'Send {"id_token": string}.');
      idToken = body.id_token;
    }
    const session = await deps.signIn.exchange(idToken);
    setSession(c, session.cookie);
    return c.json({ ok: true, email: session.email, expires_at: session.expiresAt }, 200);
  });

  app.post("/auth/logout", async (c) => {
    await deps.identity.endSession(getCookie(c, SESSION_COOKIE));
    const attrs = sessionCookieAttributes(c.req.url, 0);
    deleteCookie(c, SESSION_COOKIE, { path: attrs.path, secure: attrs.secure, httpOnly: true, sameSite: "Lax" });
    return c.json({ ok: true }, 200);
  });

  for (const path of ["/auth/request-link", "/auth/session/exchange", "/auth/logout"]) app.all(path, methodNotAllowed);
  app.all("/auth/callback", methodNotAllowed);
  return app;
}
