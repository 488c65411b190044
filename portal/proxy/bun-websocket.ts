// Implements: the Bun binding of the box's WebSocket relay (websocket-relay.ts holds the relay
// itself): Bun's server upgrades the browser once the box accepted, and its socket handlers hand
// the browser's frames and close to the relay. Bun only.
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import { openBoxLink, sendable, upgradeFailed, type BoxLink, type RelayPeer } from "./websocket-relay.ts";

export { isWebSocketUpgrade } from "./websocket-relay.ts";

/** The browser's side as a relay peer: Bun's server socket takes every sendable code, and can be cut. */
function bunPeer(ws: ServerWebSocket<BoxLink>): RelayPeer {
  return {
    send: (frame) => ws.send(frame),
    close(code, reason) {
      if (sendable(code)) ws.close(code, reason);
      else if (code === 1005) ws.close();
      else ws.terminate();
    },
  };
}

export function createWebSocketProxy(boxUrl: () => string | null, openTimeoutMs = 10_000) {
  async function upgrade(req: Request, server: Server<BoxLink>): Promise<Response | undefined> {
    const opened = await openBoxLink(req, boxUrl, openTimeoutMs);
    if ("refusal" in opened) return opened.refusal;
    const { link } = opened;
    const extra = link.protocol ? { "Sec-WebSocket-Protocol": link.protocol } : undefined;
    if (server.upgrade(req, { data: link, headers: extra })) return undefined;
    link.abandon(1011, "client upgrade failed");
    return upgradeFailed();
  }

  const websocket: WebSocketHandler<BoxLink> = {
    open: (ws) => ws.data.attach(bunPeer(ws)),
    message: (ws, message) => ws.data.fromBrowser(message),
    close: (ws, code, reason) => ws.data.browserClosed(code, reason),
  };

  return { upgrade, websocket };
}
