// A scripted HTTP server on 127.0.0.1:0 (node:http / node:http2, which run under Node and Bun);
// each provider fake subclasses it and speaks that provider's real wire format. Bedrock's SDK
// talks HTTP/2, so that fake listens with cleartext HTTP/2 (prior knowledge), the others HTTP/1.1.
import { createServer as createHttp1, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createH2c, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import type { FakeOptions, RecordedRequest, Script } from "./script.ts";

/** A frame to write, or a pause, or a dropped connection. */
export type Frame = string | Uint8Array | { delayMs: number } | { disconnect: true };

export type FakeRequest = IncomingMessage | Http2ServerRequest;
export type FakeResponse = ServerResponse | Http2ServerResponse;

export abstract class FakeServer {
  readonly requests: RecordedRequest[] = [];
  protected readonly queue: Script[] = [];
  private server: Server | Http2Server | undefined;
  private readonly sockets = new Set<Socket>();
  private base = "";

  constructor(
    protected readonly options: FakeOptions = {},
    private readonly protocol: "http1" | "h2c" = "http1",
  ) {}

  /** Base address, e.g. `http://127.0.0.1:40123` (no trailing slash, no /v1). */
  get url(): string {
    return this.base;
  }

  get lastRequest(): RecordedRequest | undefined {
    return this.requests[this.requests.length - 1];
  }

  /** Queue one script per coming generation request, in order. */
  enqueue(...scripts: Script[]): this {
    this.queue.push(...scripts);
    return this;
  }

  /**
   * While set, every generation request gets this script and the queue is left alone: a turn
   * whose speculative request was dropped (a voice socket starts one on words that look complete)
   * then still gets the answer a test scripted for it.
   */
  always: Script | null = null;

  protected nextScript(): Script {
    return this.always ?? this.queue.shift() ?? this.options.defaultScript ?? [{ text: "ok" }];
  }

  /** Port 0 picks a free one; a fixed port brings a provider back where a box already points. */
  async listen(port = 0): Promise<this> {
    const onRequest = (req: FakeRequest, res: FakeResponse) => void this.dispatch(req, res);
    const server = this.protocol === "h2c" ? createH2c(onRequest) : createHttp1(onRequest);
    server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.once("close", () => this.sockets.delete(s));
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  protected abstract handle(req: FakeRequest, rec: RecordedRequest, res: FakeResponse): Promise<void> | void;

  private async dispatch(req: FakeRequest, res: FakeResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep raw text
    }
    const rec: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, closed: closedOf(req) };
    this.requests.push(rec);
    try {
      await this.handle(req, rec, res);
    } catch (err) {
      if (!res.headersSent) this.json(res, 500, { error: String(err) });
      else drop(res);
    }
  }

  protected json(res: FakeResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  }

  /** Writes frames in order; stops as soon as the client has gone away. */
  protected async play(res: FakeResponse, frames: Frame[]): Promise<void> {
    const latency = this.options.latencyMs ?? 0;
    for (const f of frames) {
      if (gone(res)) return;
      if (typeof f === "object" && "delayMs" in f) {
        await sleep(f.delayMs);
        continue;
      }
      if (typeof f === "object" && "disconnect" in f) return drop(res);
      if (latency > 0) await sleep(latency);
      if (gone(res)) return;
      const bytes = typeof f === "string" ? Buffer.from(f) : f;
      if (this.options.fragment && bytes.length > 1) {
        // Cut by bytes so multi-byte characters straddle two reads too.
        const cut = Math.floor(bytes.length / 2);
        (res as ServerResponse).write(bytes.subarray(0, cut));
        await new Promise((r) => setImmediate(r));
        (res as ServerResponse).write(bytes.subarray(cut));
      } else (res as ServerResponse).write(bytes);
    }
    if (!gone(res)) res.end();
  }
}

function gone(res: FakeResponse): boolean {
  if ("stream" in res) return res.stream.destroyed || res.stream.closed || res.writableEnded;
  return res.destroyed || res.writableEnded;
}

/** The whole connection goes: HTTP/1.1 socket, or the HTTP/2 session. */
function drop(res: FakeResponse): void {
  if ("stream" in res) res.stream.session?.destroy();
  else res.socket?.destroy();
}

// HTTP/1.1: one close promise per socket (keep-alive sockets carry many requests).
// HTTP/2: the request's own stream closing (an abort resets the stream, not the session).
const closedBySocket = new WeakMap<Socket, Promise<void>>();
function closedOf(req: FakeRequest): Promise<void> {
  if ("stream" in req) {
    const stream = req.stream;
    return stream.closed ? Promise.resolve() : new Promise<void>((resolve) => stream.once("close", () => resolve()));
  }
  const socket = req.socket;
  let p = closedBySocket.get(socket);
  if (!p) {
    p = socket.destroyed ? Promise.resolve() : new Promise<void>((resolve) => socket.once("close", () => resolve()));
    closedBySocket.set(socket, p);
  }
  return p;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function bearer(req: FakeRequest): string | undefined {
  const h = req.headers.authorization;
  return typeof h === "string" && h.startsWith("Bearer ") ? h.slice(7) : undefined;
}
