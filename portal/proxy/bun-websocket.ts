// Implements: one host for the box's WebSockets (`/api/voice/ws`, `/api/session/ws`): Bun's server
// upgrades the browser only after the box accepted the same upgrade, then relays frames and close
// codes (the 4000-range refusals) both ways. A refused upgrade comes back as the box's own HTTP
// answer (401 `{code, message}`), so no socket is opened. Bun only.
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import { ApiError, errorBody } from "../../shared/errors/api-error.ts";
import { isBoxPath, upstreamRequestHeaders } from "./forward.ts";

interface Link {
  upstream: WebSocket;
  client: ServerWebSocket<Link> | null;
  /** Frames the box sent before the browser side finished opening. */
  pending: (string | ArrayBuffer)[];
  /** The box closed before the browser side opened. */
  closedEarly: { code: number; reason: string } | null;
}

const HANDSHAKE = ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", "accept-encoding"];
// Close codes a peer may send in a close frame (1005, 1006 and 1015 are reserved for reporting).
const sendable = (code: number) => code === 1000 || (code >= 1001 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);

export function isWebSocketUpgrade(req: Request): boolean {
  return (req.headers.get("upgrade") ?? "").toLowerCase() === "websocket" && isBoxPath(new URL(req.url).pathname);
}

const json = (status: number, body: unknown) => Response.json(body, { status });

export function createWebSocketProxy(boxUrl: () => string | null, openTimeoutMs = 10_000) {
  async function upgrade(req: Request, server: Server<Link>): Promise<Response | undefined> {
    const base = boxUrl();
    if (!base) return json(503, errorBody(new ApiError(503, "box_not_running", "No box is running."), "nested"));
    const inbound = new URL(req.url);
    const target = new URL(inbound.pathname + inbound.search, base);
    target.protocol = target.protocol === "https:" ? "wss:" : "ws:";
    const headers = upstreamRequestHeaders(req);
    for (const h of HANDSHAKE) headers.delete(h);
    const protocols = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim()).filter(Boolean);

    const upstream = new WebSocket(target.href, { headers: Object.fromEntries(headers), protocols } as unknown as string[]);
    upstream.binaryType = "arraybuffer";
    const link: Link = { upstream, client: null, pending: [], closedEarly: null };
    upstream.addEventListener("message", (ev) => {
      const data = ev.data as string | ArrayBuffer;
      if (link.client) link.client.send(data);
      else link.pending.push(data);
    });
    upstream.addEventListener("close", (ev) => {
      if (link.client) closeClient(link.client, ev.code, ev.reason);
      else link.closedEarly = { code: ev.code, reason: ev.reason };
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
    const extra = upstream.protocol ? { "Sec-WebSocket-Protocol": upstream.protocol } : undefined;
    if (server.upgrade(req, { data: link, headers: extra })) return undefined;
    upstream.close(1011, "client upgrade failed");
    return json(400, errorBody(new ApiError(400, "upgrade_failed", "The WebSocket upgrade could not be completed."), "nested"));
  }

  const websocket: WebSocketHandler<Link> = {
    open(ws) {
      const link = ws.data;
      link.client = ws;
      for (const frame of link.pending) ws.send(frame);
      link.pending = [];
      if (link.closedEarly) closeClient(ws, link.closedEarly.code, link.closedEarly.reason);
    },
    message(ws, message) {
      if (ws.data.upstream.readyState === WebSocket.OPEN) ws.data.upstream.send(message);
    },
    close(ws, code, reason) {
      const up = ws.data.upstream;
      if (up.readyState === WebSocket.OPEN || up.readyState === WebSocket.CONNECTING) up.close(sendable(code) ? code : 1000, reason);
    },
  };

  return { upgrade, websocket };
}

function closeClient(ws: ServerWebSocket<Link>, code: number, reason: string): void {
  if (sendable(code)) ws.close(code, reason);
  else if (code === 1005) ws.close();
  else ws.terminate();
}

/** The box refused the upgrade: ask it over plain HTTP for its answer (a 401 `{code, message}`). */
async function refusalFromBox(target: URL, headers: Headers): Promise<Response> {
  const http = new URL(target);
  http.protocol = http.protocol === "wss:" ? "https:" : "http:";
  try {
    const res = await fetch(http, { headers, redirect: "manual", signal: AbortSignal.timeout(5000) });
    if (res.status === 401 || res.status === 404 || res.status === 409 || res.status === 403) {
      return new Response(res.body, { status: res.status === 403 ? 409 : res.status, headers: { "content-type": res.headers.get("content-type") ?? "application/json" } });
    }
  } catch {
    // Fall through: the box is not answering at all.
  }
  return json(502, errorBody(new ApiError(502, "box_unreachable", "The box did not accept the WebSocket."), "nested"));
}
