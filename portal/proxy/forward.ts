// Implements: "served from one host": the portal forwards the box's paths to the running box, so a
// browser sees one origin. A 403 never leaves the host (fact 9): it is rewritten to 409, same body,
// except clip generation's `consent_required` (the spec's one listed 403).
// Web-standard (fetch); WebSocket upgrades are relayed by websocket-relay.ts, bound by the runtime entry.
import { ApiError } from "../../shared/errors/api-error.ts";
import { SESSION_COOKIE } from "../identity/session-cookie.ts";

/** Path patterns (Hono syntax) that belong to the box plane. */
export const BOX_PATH_PATTERNS = ["/api/*", "/v1/*", "/connect", "/offer", "/disconnect", "/conversations", "/conversations/*", "/health"];

export function isBoxPath(path: string): boolean {
  return (
    path.startsWith("/api/") ||
    path.startsWith("/v1/") ||
    path === "/api" ||
    path === "/v1" ||
    path === "/connect" ||
    path === "/offer" ||
    path === "/disconnect" ||
    path === "/health" ||
    path === "/conversations" ||
    path.startsWith("/conversations/")
  );
}

const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
];

/** The cookie header without the portal's own session: the planes share no credential (fact 3). */
export function withoutPortalCookie(cookie: string | null): string | null {
  if (!cookie) return null;
  const kept = cookie
    .split(";")
    .map((p) => p.trim())
    .filter((p) => p !== "" && !p.startsWith(`${SESSION_COOKIE}=`));
  return kept.length ? kept.join("; ") : null;
}

export function upstreamRequestHeaders(req: Request): Headers {
  const headers = new Headers(req.headers);
  for (const h of HOP_BY_HOP) headers.delete(h);
  const cookie = withoutPortalCookie(req.headers.get("cookie"));
  if (cookie) headers.set("cookie", cookie);
  else headers.delete("cookie");
  // Bodies pass through as bytes; an encoding negotiated past us would be decoded by fetch.
  headers.set("accept-encoding", "identity");
  const url = new URL(req.url);
  headers.set("x-forwarded-host", req.headers.get("host") ?? url.host);
  headers.set("x-forwarded-proto", url.protocol.replace(":", ""));
  return headers;
}

export interface ForwardOptions {
  fetch?: typeof fetch;
}

export async function forwardToBox(req: Request, boxBase: string, opts: ForwardOptions = {}): Promise<Response> {
  const inbound = new URL(req.url);
  const target = new URL(inbound.pathname + inbound.search, boxBase);
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.body !== null;
  let upstream: Response;
  try {
    upstream = await (opts.fetch ?? fetch)(target, {
      method: req.method,
      headers: upstreamRequestHeaders(req),
      body: hasBody ? req.body : undefined,
      redirect: "manual",
      signal: req.signal,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
  } catch (err) {
    if (req.signal.aborted) throw err;
    throw new ApiError(502, "box_unreachable", "The box did not answer.");
  }
  const headers = new Headers(upstream.headers);
  for (const h of HOP_BY_HOP) headers.delete(h);
  if (headers.has("content-encoding")) {
    headers.delete("content-encoding");
    headers.delete("content-length");
  }
  if (upstream.status !== 403) return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers });
  // Fact 9: the CDN would turn a 403 into an HTML sign-in page; 409 carries the same body through,
  // except clip generation's `consent_required`, the spec's one listed 403, which passes as it is.
  const body = await upstream.text();
  const status = consentRequired(body) ? 403 : 409;
  headers.delete("content-length");
  return new Response(body, { status, statusText: status === 409 ? "Conflict" : "Forbidden", headers });
}

function consentRequired(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } };
    return parsed?.error?.code === "consent_required";
  } catch {
    return false;
  }
}
