// Implements: Authentication: Plane B (the portal session cookie).
// The cookie is signed and stored: `<token>.<HMAC-SHA256(secret, token)>`. A forged value fails the
// signature before any lookup; the stored row (keyed by the signature, never the token) makes
// logout and expiry final, so a replayed cookie is refused.
export const SESSION_COOKIE = "portal_session";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

export function encodeSessionCookie(token: string, signature: string): string {
  return `${token}.${signature}`;
}

/** Splits a presented cookie value; null for anything not shaped like one we issued. */
export function decodeSessionCookie(value: string): { token: string; signature: string } | null {
  const m = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/.exec(value);
  return m ? { token: m[1], signature: m[2] } : null;
}

export interface CookieAttributes {
  httpOnly: true;
  secure: boolean;
  sameSite: "Lax";
  path: "/";
  maxAge: number;
}

/** HttpOnly, SameSite=Lax, Path=/, and Secure everywhere except on a loopback host. */
export function sessionCookieAttributes(requestUrl: string, maxAgeSeconds: number): CookieAttributes {
  const secure = !isLoopbackHost(new URL(requestUrl).hostname);
  return { httpOnly: true, secure, sameSite: "Lax", path: "/", maxAge: maxAgeSeconds };
}
