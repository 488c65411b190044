// A JSON WebSocket client for tests: collects frames, waits for a type, reports the close.
import WebSocket from "ws";

export class WsClient {
  readonly frames: Record<string, any>[] = [];
  closeCode: number | null = null;
  closeReason = "";
  private readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.opened = new Promise((res, rej) => {
      this.ws.once("open", () => res());
      this.ws.once("unexpected-response", (_req, r) => {
        let body = "";
        r.on("data", (d) => (body += d));
        r.on("end", () => rej(Object.assign(new Error(`upgrade refused ${r.statusCode}`), { status: r.statusCode, body })));
      });
      this.ws.once("error", rej);
    });
    this.opened.catch(() => {});
    this.closed = new Promise((res) =>
      this.ws.once("close", (code, reason) => ((this.closeCode = code), (this.closeReason = reason.toString()), res())),
    );
    this.ws.on("message", (data, binary) => {
      if (!binary) this.frames.push(JSON.parse(data.toString()));
    });
  }

  send(frame: object | string | Buffer): void {
    this.ws.send(typeof frame === "string" || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  types(): string[] {
    return this.frames.map((f) => f.type);
  }

  async waitFor(pred: (f: Record<string, any>) => boolean, timeoutMs = 10_000, what = "frame"): Promise<Record<string, any>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.frames.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.types())}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  waitType(type: string, timeoutMs?: number) {
    return this.waitFor((f) => f.type === type, timeoutMs, type);
  }

  close(): void {
    this.ws.close();
  }
}
