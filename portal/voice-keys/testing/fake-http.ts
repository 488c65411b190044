// A tiny HTTP server on 127.0.0.1:0 for the provider fakes: records every request, and can hang
// (accept, read, never answer) until closed.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface FakeHttp {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeHttp(
  handle: (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void,
  hang: () => boolean,
): Promise<FakeHttp> {
  const requests: RecordedRequest[] = [];
  const server = createServer((raw, res) => {
    const url = new URL(raw.url ?? "/", "http://fake");
    const req = { method: raw.method ?? "GET", path: url.pathname, query: url.searchParams, headers: raw.headers };
    requests.push(req);
    raw.resume();
    raw.on("end", () => {
      if (hang()) return; // never answers; the socket is destroyed on close
      handle(req, res, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
