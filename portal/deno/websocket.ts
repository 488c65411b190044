// Implements: one host for the box's WebSockets (`/api/voice/ws`, `/api/session/ws`) on the Deno
// entry, as portal/proxy/bun-websocket.ts does on Bun: the browser is upgraded (Deno.upgradeWebSocket)
// only after the box accepted the same upgrade; frames (text and binary) and close codes (the
// 4000-range refusals) are relayed both ways, frames the box sends before the browser side is open
// are kept and delivered first. A refused upgrade comes back as the box's own HTTP answer (401
// `{code, message}`), so no socket is opened. A Deno host that serves WebSockets (Deno Deploy does)
// can relay them; a CDN or the one-host router in front of the box is the alternative.
import { ApiError, errorBody } from "../../shared/errors/api-error.ts";
import { isBoxPath, upstreamRequestHeaders } from "../proxy/forward.ts";

type Frame = string | ArrayBuffer;
type UpgradeWebSocket = (req: Request, options?: { protocol?: string }) => { socket: WebSocket; response: Response };

const HANDSHAKE = ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", "accept-encoding"];
// Close codes a peer may send in a close frame (1005, 1006 and 1015 are reserved for reporting).
const sendable = (code: number) => code === 1000 || (code >= 1001 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);

export function isWebSocketUpgrade(req: Request): boolean {
  return (req.headers.get("upgrade") ?? "").toLowerCase() === "websocket" && isBoxPath(new URL(req.url).pathname);
}

const json = (status: number, body: unknown) => Response.json(body, { status });

function closeSocket(ws: WebSocket, code: number, reason: string): void {
  try {
    if (sendable(code)) ws.close(code, reason);
    else ws.close();
  } catch {
    // A code this runtime will not put in a close frame (WebSocket.close takes 1000 and 3000-4999): close plainly.
    ws.close();
  }
}

export function createDenoWebSocketRelay(boxUrl: () => string | null, upgradeWebSocket: UpgradeWebSocket, openTimeoutMs = 10_000) {
  return async function relay(req: Request): Promise<Response> {
    const base = boxUrl();
    if (!base) return json(503, errorBody(new ApiError(503, "box_not_running", "No box is running."), "nested"));
    const inbound = new URL(req.url);
    const target = new URL(inbound.pathname + inbound.search, base);
    target.protocol = target.protocol === "https:" ? "wss:" : "ws:";
    const headers = upstreamRequestHeaders(req);
    for (const h of HANDSHAKE) headers.delete(h);
    const protocols = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim()).filter(Boolean);

    // Deno's WebSocket takes request headers in an options bag (the box reads the forwarded host and cookies).
    const upstream = new WebSocket(target.href, { headers: Object.fromEntries(headers), protocols } as unknown as string[]);
    upstream.binaryType = "arraybuffer";
    let client: WebSocket | null = null;
    let pending: Frame[] = [];
    let closedEarly: { code: number; reason: string } | null = null;
    upstream.addEventListener("message", (ev) => {
      const data = ev.data as Frame;
      if (client && client.readyState === WebSocket.OPEN) client.send(data);
      else pending.push(data);
    });
    upstream.addEventListener("close", (ev) => {
      if (client && client.readyState === WebSocket.OPEN) closeSocket(client, ev.code, ev.reason);
      else closedEarly = { code: ev.code, reason: ev.reason };
    });

    const opened = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), openTimeoutMs);
      upstream.addEventListener("open", () => (clearTimeout(timer), resolve(true)), { once: true });
      upstream.addEventListener("error", () => (clearTimeout(timer), resolve(false)), { once: true });
      upstream.addEventListener("close", () => (clearTimeout(timer), resolve(false)), { once: true });
    });
    if (!opened) {
      upstream.close();
      return refusalFromBox(target, headers);
    }

    let upgraded: { socket: WebSocket; response: Response };
    try {
      upgraded = upgradeWebSocket(req, upstream.protocol ? { protocol: upstream.protocol } : undefined);
    } catch {
      upstream.close(1000, "client upgrade failed");
      return json(400, errorBody(new ApiError(400, "upgrade_failed", "The WebSocket upgrade could not be completed."), "nested"));
    }
    const socket = upgraded.socket;
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", () => {
      client = socket;
      for (const frame of pending) socket.send(frame);
      pending = [];
      if (closedEarly) closeSocket(socket, closedEarly.code, closedEarly.reason);
    });
    socket.addEventListener("message", (ev) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(ev.data as Frame);
    });
    socket.addEventListener("close", (ev) => {
      if (upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING) closeSocket(upstream, sendable(ev.code) ? ev.code : 1000, ev.reason);
    });
    return upgraded.response;
  };
}

/** The box refused the upgrade: ask it over plain HTTP for its answer (a 401 `{code, message}`). Same as the Bun relay. */
async function refusalFromBox(target: URL, headers: Headers): Promise<Response> {
  const http = new URL(target);
  http.protocol = http.protocol === "wss:" ? "https:" : "http:";
  try {
    const res = await fetch(http, { headers, redirect: "manual", signal: AbortSignal.timeout(5000) });
    if (res.status === 401 || res.status === 404 || res.status === 409 || res.status === 403) {
      return new Response(res.body, { status: res.status === 403 ? 409 : res.status, headers: { "content-type": res.headers.get("content-type") ?? "application/json" } });
    }
    await res.body?.cancel();
  } catch {
    // Fall through: the box is not answering at all.
  }
  return json(502, errorBody(new ApiError(502, "box_unreachable", "The box did not accept the WebSocket."), "nested"));
}
