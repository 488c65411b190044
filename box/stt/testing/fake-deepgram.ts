// A local stand-in for Deepgram's live endpoint (`/v1/listen`), speaking its wire protocol over a
// real WebSocket: `Authorization: Token` checked at the upgrade (401 with a JSON body otherwise),
// binary linear16 in, scripted `Results` (interim, then is_final/speech_final), `UtteranceEnd`,
// and on `CloseStream` the pending final, a `Metadata` message and a 1000 close.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

export interface FakeDeepgramOptions {
  apiKey: string;
  /**
   * What the upgrade checks: `token` (Deepgram: `Authorization: Token <key>`), `bearer` (a
   * self-hosted server with a key: `Authorization: Bearer <key>`), `none` (no auth at all).
   */
  auth?: "token" | "bearer" | "none";
  /** Spoken in order, one per utterance; an array is one utterance finalised in pieces. */
  utterances: (string | string[])[];
  /** Audio (ms) that reveals one more word. */
  msPerWord?: number;
}

export interface FakeDeepgramConnection {
  query: URLSearchParams;
  authorization: string | undefined;
  audioBytes: number;
  /** Text messages from the client, parsed. */
  controls: { type?: string }[];
  /** Messages sent to the client, parsed. */
  sent: Record<string, unknown>[];
  closeCode: number | null;
}

interface Progress {
  conn: FakeDeepgramConnection;
  utterance: number;
  /** Words of the current utterance already sent as is_final. */
  finalised: number;
  /** Words of the current utterance revealed so far. */
  revealed: number;
  /** Seconds of audio at the start of the current piece. */
  pieceStart: number;
}

export class FakeDeepgram {
  readonly connections: FakeDeepgramConnection[] = [];
  private readonly sockets = new Set<WebSocket>();

  private constructor(
    private readonly server: Server,
    private readonly wss: WebSocketServer,
    private readonly o: Required<FakeDeepgramOptions>,
  ) {}

  static async start(options: FakeDeepgramOptions): Promise<FakeDeepgram> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    const wss = new WebSocketServer({ noServer: true });
    const fake = new FakeDeepgram(server, wss, { msPerWord: 200, auth: "token", ...options });
    server.on("upgrade", (req, socket, head) => fake.onUpgrade(req, socket as import("node:net").Socket, head));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  /** Base address for DeepgramOptions.url. */
  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Drops every stream as a failing server would (close 1011). */
  dropAll(): void {
    for (const ws of this.sockets) ws.close(1011, "NET-0000 internal error");
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onUpgrade(req: IncomingMessage, socket: import("node:net").Socket, head: Buffer): void {
    const url = new URL(req.url ?? "/", "http://fake");
    const refuse = (status: number, code: string, message: string) => {
      const body = JSON.stringify({ err_code: code, err_msg: message, request_id: randomUUID() });
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : status === 404 ? "Not Found" : "Bad Request"}\r\n` +
          `content-type: application/json\r\ndg-error: ${message}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    if (url.pathname !== "/v1/listen") return refuse(404, "NOT_FOUND", "Unknown path.");
    const auth = this.o.auth ?? "token";
    const expected = auth === "none" ? undefined : `${auth === "bearer" ? "Bearer" : "Token"} ${this.o.apiKey}`;
    if (auth !== "none" && req.headers.authorization !== expected) return refuse(401, "INVALID_AUTH", "Invalid credentials.");
    if (url.searchParams.get("encoding") !== "linear16" || !Number(url.searchParams.get("sample_rate"))) {
      return refuse(400, "Bad Request", "encoding=linear16 and sample_rate are required for raw audio.");
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onStream(ws, req, url.searchParams));
  }

  private onStream(ws: WebSocket, req: IncomingMessage, query: URLSearchParams): void {
    const conn: FakeDeepgramConnection = {
      query,
      authorization: req.headers.authorization,
      audioBytes: 0,
      controls: [],
      sent: [],
      closeCode: null,
    };
    this.connections.push(conn);
    this.sockets.add(ws);
    const p: Progress = { conn, utterance: 0, finalised: 0, revealed: 0, pieceStart: 0 };
    const send = (msg: Record<string, unknown>) => {
      conn.sent.push(msg);
      ws.send(JSON.stringify(msg));
    };
    ws.on("close", (code) => {
      conn.closeCode = code;
      this.sockets.delete(ws);
    });
    ws.on("message", (data, isBinary) => {
      if (isBinary) {
        conn.audioBytes += (data as Buffer).length;
        for (const msg of this.advance(p, query)) send(msg);
        return;
      }
      const control = JSON.parse(data.toString()) as { type?: string };
      conn.controls.push(control);
      if (control.type === "Finalize" || control.type === "CloseStream") {
        for (const msg of this.flush(p)) send(msg);
      }
      if (control.type === "CloseStream") {
        send(this.metadata(p));
        ws.close(1000);
      }
    });
  }

  private seconds(p: Progress, query: URLSearchParams): number {
    return p.conn.audioBytes / 2 / Number(query.get("sample_rate"));
  }

  /** Reveals words as audio arrives; finalises a piece when its words are all out. */
  private advance(p: Progress, query: URLSearchParams): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    const now = this.seconds(p, query);
    while (p.utterance < this.o.utterances.length) {
      const pieces = this.pieces(p.utterance);
      const words = pieces.flat();
      const due = Math.min(words.length, Math.floor((now * 1000) / this.o.msPerWord) - this.wordsBefore(p.utterance));
      if (due <= p.revealed) break;
      p.revealed = due;
      // Finalise every piece whose words are all revealed; the rest is interim.
      let boundary = 0;
      for (let i = 0; i < pieces.length; i++) {
        const end = boundary + pieces[i].length;
        if (end <= p.revealed && end > p.finalised) {
          const last = i === pieces.length - 1;
          out.push(this.results(p, words.slice(p.finalised, end), true, last, now));
          p.finalised = end;
          if (last && query.get("utterance_end_ms")) out.push({ type: "UtteranceEnd", channel: [0, 1], last_word_end: now });
        }
        boundary = end;
      }
      if (p.finalised === words.length) {
        p.utterance++;
        p.finalised = p.revealed = 0;
        continue;
      }
      if (p.revealed > p.finalised) out.push(this.results(p, words.slice(p.finalised, p.revealed), false, false, now));
      break;
    }
    return out;
  }

  private flush(p: Progress): Record<string, unknown>[] {
    if (p.revealed <= p.finalised) return [];
    const words = this.pieces(p.utterance).flat().slice(p.finalised, p.revealed);
    p.finalised = p.revealed;
    return [{ ...this.results(p, words, true, false, p.pieceStart), from_finalize: true }];
  }

  private pieces(index: number): string[][] {
    const u = this.o.utterances[index];
    return (Array.isArray(u) ? u : [u]).map((piece) => piece.split(/\s+/).filter(Boolean));
  }

  private wordsBefore(index: number): number {
    let n = 0;
    for (let i = 0; i < index; i++) n += this.pieces(i).flat().length;
    return n;
  }

  private results(p: Progress, words: string[], isFinal: boolean, speechFinal: boolean, now: number): Record<string, unknown> {
    const start = p.pieceStart;
    if (isFinal) p.pieceStart = now;
    const transcript = words.join(" ");
    return {
      type: "Results",
      channel_index: [0, 1],
      duration: Math.max(0, now - start),
      start,
      is_final: isFinal,
      speech_final: speechFinal,
      from_finalize: false,
      channel: {
        alternatives: [{ transcript, confidence: 0.99, words: words.map((word) => ({ word, punctuated_word: word, confidence: 0.99 })) }],
      },
      metadata: { request_id: "fake", model_info: { name: "fake", version: "0", arch: "fake" }, model_uuid: "fake" },
    };
  }

  private metadata(p: Progress): Record<string, unknown> {
    return {
      type: "Metadata",
      transaction_key: "deprecated",
      request_id: randomUUID(),
      sha256: "",
      created: new Date().toISOString(),
      duration: p.conn.audioBytes / 2 / Number(p.conn.query.get("sample_rate")),
      channels: 1,
      models: ["fake"],
      model_info: {},
    };
  }
}
