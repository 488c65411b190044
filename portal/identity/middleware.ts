// Every `/auth/*` route except the sign-in routes needs an identity (401 `{code, message}` without one),
// and a change carried by the session cookie must come from the portal's own pages.
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../shared/errors/api-error.ts";
import { getCookie } from "hono/cookie";
import type { PortalHonoEnv } from "../http/types.ts";
import type { IdentityService } from "./service.ts";
import { SESSION_COOKIE } from "./session-cookie.ts";

export const SIGN_IN_PATHS = new Set(["/auth/request-link", "/auth/callback", "/auth/session/exchange", "/auth/logout"]);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface RequireIdentityOptions {
  /** The portal's public base URL (PORTAL_PUBLIC_URL, else the listening URL); null: only the request's own host. */
  publicUrl?: string | null;
}

/**
 * Whether an `Origin` header names the portal itself: the public URL's origin, or the host this
 * request was addressed to. The host is compared without the scheme: behind a proxy that
 * terminates TLS and keeps `Host`, the portal hears http for the browser's https. (`null`, sent by
 * sandboxed frames and some redirects, is nobody's origin.)
 */
export function isOwnOrigin(origin: string, requestUrl: string, publicUrl: string | null): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.origin === "null") return false;
  if (publicUrl && o.origin === new URL(publicUrl).origin) return true;
  return o.host === new URL(requestUrl).host;
}

export function requireIdentity(identity: IdentityService, opts: RequireIdentityOptions = {}): MiddlewareHandler<PortalHonoEnv> {
  const publicUrl = opts.publicUrl ?? null;
  return async (c, next) => {
    if (SIGN_IN_PATHS.has(c.req.path)) return next();
    const who = await identity.resolve(c.req.header("authorization"), getCookie(c, SESSION_COOKIE));
    // A cookie rides along on requests another site starts; SameSite=Lax stops cross-site POSTs but
    // not a sibling subdomain's. Browsers say where a request came from: Fetch Metadata where they
    // send it, `Origin` on every POST, PUT and DELETE (older browsers send only that). Only the
    // portal's own pages may change anything on a cookie; a caller sending neither header (not a
    // browser) is served as before. 409 stands in for 403 (fact 9).
    if (who.via === "cookie" && !SAFE_METHODS.has(c.req.method)) {
      const site = c.req.header("sec-fetch-site");
      const origin = c.req.header("origin");
      if (site === "cross-site" || site === "same-site" || (origin !== undefined && !isOwnOrigin(origin, c.req.url, publicUrl))) {
        throw new ApiError(
          409,
          "cross_site_request",
          "This request came from another site; the portal only accepts changes from its own pages.",
        );
      }
    }
    c.set("identity", who);
    await next();
  };
}
