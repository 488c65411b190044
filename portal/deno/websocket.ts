// Implements: the Deno binding of the box's WebSocket relay (portal/proxy/websocket-relay.ts holds
// the relay itself): the browser is upgraded with Deno.upgradeWebSocket once the box accepted, and
// its socket's events are handed to the relay. A Deno host that serves WebSockets (Deno Deploy
// does) can relay them; a CDN or the one-host router in front of the box is the alternative.
import { closeWebSocket, openBoxLink, upgradeFailed, type Frame } from "../proxy/websocket-relay.ts";

export { isWebSocketUpgrade } from "../proxy/websocket-relay.ts";

type UpgradeWebSocket = (req: Request, options?: { protocol?: string }) => { socket: WebSocket; response: Response };

export function createDenoWebSocketRelay(boxUrl: () => string | null, upgradeWebSocket: UpgradeWebSocket, openTimeoutMs = 10_000) {
  return async function relay(req: Request): Promise<Response> {
    const opened = await openBoxLink(req, boxUrl, openTimeoutMs);
    if ("refusal" in opened) return opened.refusal;
    const { link } = opened;
    let upgraded: { socket: WebSocket; response: Response };
    try {
      upgraded = upgradeWebSocket(req, link.protocol ? { protocol: link.protocol } : undefined);
    } catch {
      link.abandon(1000, "client upgrade failed");
      return upgradeFailed();
    }
    const socket = upgraded.socket;
    socket.binaryType = "arraybuffer";
    const open = () => socket.readyState === WebSocket.OPEN;
    socket.addEventListener("open", () =>
      link.attach({
        // Once the browser has gone, what the box still sends has nowhere to go.
        send: (frame) => open() && socket.send(frame),
        close: (code, reason) => open() && closeWebSocket(socket, code, reason),
      }),
    );
    socket.addEventListener("message", (ev) => link.fromBrowser(ev.data as Frame));
    socket.addEventListener("close", (ev) => link.browserClosed(ev.code, ev.reason));
    return upgraded.response;
  };
}
