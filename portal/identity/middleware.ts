// Every `/auth/*` route except the sign-in routes needs an identity (401 `{code, message}` without one).
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../shared/errors/api-error.ts";
import { getCookie } from "hono/cookie";
import type { PortalHonoEnv } from "../http/types.ts";
import type { IdentityService } from "./service.ts";
import { SESSION_COOKIE } from "./session-cookie.ts";

export const SIGN_IN_PATHS = new Set(["/auth/request-link", "/auth/callback", "/auth/session/exchange", "/auth/logout"]);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function requireIdentity(identity: IdentityService): MiddlewareHandler<PortalHonoEnv> {
  return async (c, next) => {
    if (SIGN_IN_PATHS.has(c.req.path)) return next();
    const who = await identity.resolve(c.req.header("authorization"), getCookie(c, SESSION_COOKIE));
    // A cookie rides along on requests another site starts; SameSite=Lax stops cross-site POSTs but
    // not a sibling subdomain's. Browsers say where a request came from: only same-origin (or a
    // typed navigation) may change anything on a cookie. 409 stands in for 403 (fact 9).
    if (who.via === "cookie" && !SAFE_METHODS.has(c.req.method)) {
      const site = c.req.header("sec-fetch-site");
      if (site === "cross-site" || site === "same-site") {
        throw new ApiError(409, "cross_site_request", "This request came from another site; the portal only accepts changes from its own pages.");
      }
    }
    c.set("identity", who);
    await next();
  };
}
