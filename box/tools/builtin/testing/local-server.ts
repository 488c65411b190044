// A real HTTP server on 127.0.0.1:0 for the built-in tools' fakes; records every request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage["headers"];
}

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export class LocalServer {
  readonly requests: SeenRequest[] = [];
  private server: Server | undefined;
  private base = "";
  port = 0;

  constructor(private readonly handler: Handler) {}

  /** e.g. `http://127.0.0.1:40123` (no trailing slash). */
  get url(): string {
    return this.base;
  }

  async listen(): Promise<this> {
    this.server = createServer((req, res) => {
      this.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
      const url = new URL(req.url ?? "/", "http://fake.invalid");
      Promise.resolve(this.handler(req, res, url)).catch((err) => {
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end(String(err));
        } else res.destroy();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.base = `http://127.0.0.1:${this.port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = "application/json; charset=utf-8"): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}
