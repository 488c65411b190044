// A tiny local WebSocket server for the socket clients' unit tests: it speaks the box's wire
// (JSON text frames, close codes, HTTP 401 `{code, message}` at a refused upgrade) for the cases
// the real box is hard to provoke (4003, 4005, 4006, repeated call ids...).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

export interface TinyConnection {
  ws: WebSocket;
  path: string;
  token: string | null;
  query: URLSearchParams;
  received: Record<string, any>[];
  binary: Buffer[];
  send(frame: object): void;
}

export class TinySocketServer {
  readonly connections: TinyConnection[] = [];
  /** Answer an upgrade with this status (and the box's unwrapped body) instead of accepting it. */
  refuse: ((req: IncomingMessage) => number | null) | null = null;
  onConnection: (c: TinyConnection) => void = () => {};
  private readonly server: Server;
  private readonly wss = new WebSocketServer({ noServer: true });
  url = "";

  constructor() {
    this.server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ready: true }));
    });
    this.server.on("upgrade", (req, socket, head) => {
      const status = this.refuse?.(req) ?? null;
      if (status) {
        const body = JSON.stringify({ code: "invalid_api_key", message: "The API key is not recognised or has expired." });
        socket.end(
          `HTTP/1.1 ${status} Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
        );
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        const url = new URL(req.url ?? "/", "http://x");
        const c: TinyConnection = {
          ws,
          path: url.pathname,
          token: url.searchParams.get("session_token"),
          query: url.searchParams,
          received: [],
          binary: [],
          send: (frame) => ws.send(JSON.stringify(frame)),
        };
        ws.on("message", (data, isBinary) => (isBinary ? c.binary.push(data as Buffer) : c.received.push(JSON.parse(String(data)))));
        this.connections.push(c);
        this.onConnection(c);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves when `pred` holds (polling), or throws after `ms`. */
  async until<T>(pred: () => T | undefined | null | false, ms = 3000, what = "condition"): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = pred();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.ws.terminate();
    this.wss.close();
    await new Promise((r) => this.server.close(r));
  }
}
