// Implements: one host for the box's WebSockets (`/api/voice/ws`, `/api/session/ws`), the part
// both runtimes share: the browser is upgraded only after the box accepted the same upgrade;
// frames (text and binary) and close codes (the 4000-range refusals) are relayed both ways, and
// frames the box sends before the browser side is open are kept and delivered first. A refused
// upgrade comes back as the box's own HTTP answer (401 `{code, message}`), so no socket is opened.
// The runtime bindings (bun-websocket.ts, portal/deno/websocket.ts) only upgrade the browser and
// hand its side over as a `RelayPeer`.
import { ApiError, errorBody } from "../../shared/errors/api-error.ts";
import { isBoxPath, upstreamRequestHeaders } from "./forward.ts";

export type Frame = string | ArrayBuffer | Uint8Array;

/** The browser's side of one relayed socket, as the runtime binding gives it. */
export interface RelayPeer {
  send(frame: Frame): void;
  /** Close with the box's code, or as near as this runtime allows. */
  close(code: number, reason: string): void;
}

/** The box's side of one relayed socket, open and waiting for the browser. */
export interface BoxLink {
  /** The subprotocol the box chose, to answer the browser with. */
  readonly protocol: string;
  /** The browser side is open: deliver what the box sent meanwhile, and everything after. */
  attach(peer: RelayPeer): void;
  fromBrowser(frame: Frame): void;
  browserClosed(code: number, reason: string): void;
  /** The browser could not be upgraded after all. */
  abandon(code: number, reason: string): void;
}

const HANDSHAKE = ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", "accept-encoding"];
/** Close codes a peer may send in a close frame (1005, 1006 and 1015 are reserved for reporting). */
export const sendable = (code: number) =>
  code === 1000 || (code >= 1001 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);

export function isWebSocketUpgrade(req: Request): boolean {
  return (req.headers.get("upgrade") ?? "").toLowerCase() === "websocket" && isBoxPath(new URL(req.url).pathname);
}

const json = (status: number, body: unknown) => Response.json(body, { status });

/** The 400 a binding answers when its runtime would not upgrade the browser. */
export const upgradeFailed = () =>
  json(400, errorBody(new ApiError(400, "upgrade_failed", "The WebSocket upgrade could not be completed."), "nested"));

/** Closes a standard WebSocket; a code the runtime will not put in a close frame closes it plainly. */
export function closeWebSocket(ws: WebSocket, code: number, reason: string): void {
  try {
    if (sendable(code)) ws.close(code, reason);
    else ws.close();
  } catch {
    ws.close();
  }
}

/** Opens the box's side of the socket `req` asks for: a link once the box accepted, else the answer to give the browser. */
export async function openBoxLink(
  req: Request,
  boxUrl: () => string | null,
  openTimeoutMs: number,
): Promise<{ link: BoxLink } | { refusal: Response }> {
  const base = boxUrl();
  if (!base) return { refusal: json(503, errorBody(new ApiError(503, "box_not_running", "No box is running."), "nested")) };
  const inbound = new URL(req.url);
  const target = new URL(inbound.pathname + inbound.search, base);
  target.protocol = target.protocol === "https:" ? "wss:" : "ws:";
  const headers = upstreamRequestHeaders(req);
  for (const h of HANDSHAKE) headers.delete(h);
  const protocols = (req.headers.get("sec-websocket-protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);

  // Bun's and Deno's WebSocket take request headers in an options bag (the box reads the forwarded host and cookies).
  const upstream = new WebSocket(target.href, { headers: Object.fromEntries(headers), protocols } as unknown as string[]);
  upstream.binaryType = "arraybuffer";
  let peer: RelayPeer | null = null;
  let pending: Frame[] = [];
  let closedEarly: { code: number; reason: string } | null = null;
  upstream.addEventListener("message", (ev) => {
    const data = ev.data as Frame;
    if (peer) peer.send(data);
    else pending.push(data);
  });
  upstream.addEventListener("close", (ev) => {
    if (peer) peer.close(ev.code, ev.reason);
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
    return { refusal: await refusalFromBox(target, headers) };
  }
  const live = () => upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING;
  return {
    link: {
      protocol: upstream.protocol,
      attach(p) {
        peer = p;
        for (const frame of pending) p.send(frame);
        pending = [];
        if (closedEarly) p.close(closedEarly.code, closedEarly.reason);
      },
      fromBrowser(frame) {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(frame);
      },
      browserClosed(code, reason) {
        if (live()) closeWebSocket(upstream, sendable(code) ? code : 1000, reason);
      },
      abandon(code, reason) {
        closeWebSocket(upstream, code, reason);
      },
    },
  };
}

/** The box refused the upgrade: ask it over plain HTTP for its answer (a 401 `{code, message}`). */
async function refusalFromBox(target: URL, headers: Headers): Promise<Response> {
  const http = new URL(target);
  http.protocol = http.protocol === "wss:" ? "https:" : "http:";
  try {
    const res = await fetch(http, { headers, redirect: "manual", signal: AbortSignal.timeout(5000) });
    if (res.status === 401 || res.status === 404 || res.status === 409 || res.status === 403) {
      return new Response(res.body, {
        status: res.status === 403 ? 409 : res.status,
        headers: { "content-type": res.headers.get("content-type") ?? "application/json" },
      });
    }
    await res.body?.cancel();
  } catch {
    // Fall through: the box is not answering at all.
  }
  return json(502, errorBody(new ApiError(502, "box_unreachable", "The box did not accept the WebSocket."), "nested"));
}
