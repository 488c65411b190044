// A local Cartesia on 127.0.0.1:0 speaking the real wire protocol (docs/providers.md 2.1-2.8, and
// the checklist in section 6): `Cartesia-Version` required; the key as `X-API-Key` or
// `Authorization: Bearer`; errors as JSON from version 2026-03-01 on, `Title: Message` text before;
// `POST /tts/sse` with raw output only, `data:` events chunk / timestamps / done (or error);
// `GET /voices` cursor pages; `GET /voices/{id}`; `GET /` without auth. Switches in `mode` make
// it fail the ways the real one does. node:http, so it runs under vitest (Node) and Bun.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { chunkRanges, pcmBytes, speak } from "./fake-speech.ts";

export const FAKE_CARTESIA_KEY = "sk_car_fake0123456789abcdefABCDEF";
const LATEST_VERSION = "2026-03-01";
const RATES = [8000, 16000, 22050, 24000, 44100, 48000];
const REQUEST_ID = "550e8400-e29b-41d4-a716-446655440000";

export interface FakeVoice {
  id: string;
  name: string;
  description: string;
  language: string;
  gender?: string | null;
  country?: string | null;
  is_owner?: boolean;
}

export const FAKE_VOICES: FakeVoice[] = [
  {
    id: "a0e99841-438c-4a64-b679-ae501e7d6091",
    name: "Katie",
    description: "Friendly narrator",
    language: "en",
    gender: "feminine",
    country: "US",
  },
  {
    id: "b7d50908-b17c-442d-ad8d-810c63997ed9",
    name: "Pedro",
    description: "Calm reader",
    language: "es",
    gender: "masculine",
    country: "MX",
  },
  { id: "c2ac25f9-ecc4-4f56-9095-651354df60c0", name: "Nova", description: "", language: "fr", gender: null, is_owner: true },
];

/** What the next requests do; `reset()` restores the defaults. */
export interface FakeCartesiaMode {
  /** Refuse every authenticated request with this status and Cartesia's body for it. */
  fail?: 401 | 402 | 403 | 429 | 500 | 503;
  /** A 200 speech answer that is not the protocol. */
  garbage?: "html" | "bad-json" | "no-audio" | "bad-base64" | "no-events";
  /** Accept the request and never answer (no first byte). */
  hang?: boolean;
  /** Before the response headers. */
  latencyMs?: number;
  /** Between audio chunks (the first goes at once). */
  chunkDelayMs?: number;
  /** Audio per chunk event. */
  chunkMs?: number;
  /** Cut chunks at odd byte offsets, so a sample straddles two chunks. */
  oddChunks?: boolean;
  /** After this many chunks: stop sending but keep the connection open. */
  stallAfterChunks?: number;
  /** After this many chunks: destroy the connection. */
  closeAfterChunks?: number;
  /** After this many chunks: an SSE error event, then the end of the stream. */
  errorAfterChunks?: number;
  /** Voice ids answered 404 (deleted since the list was read). */
  deleted?: string[];
}

export interface FakeCartesiaRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: any;
}

export class FakeCartesia {
  readonly requests: FakeCartesiaRequest[] = [];
  /** Speech answers whose connection the client closed before the stream was complete. */
  abandoned = 0;
  mode: FakeCartesiaMode = {};
  voices: FakeVoice[];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private base = "";
  private closing = false;

  constructor(
    readonly apiKey = FAKE_CARTESIA_KEY,
    voices: FakeVoice[] = FAKE_VOICES,
  ) {
    this.voices = voices.slice();
  }

  get url(): string {
    return this.base;
  }

  /** Speech requests only. */
  get speechRequests(): FakeCartesiaRequest[] {
    return this.requests.filter((r) => r.path === "/tts/sse");
  }

  reset(): void {
    this.mode = {};
    this.requests.length = 0;
    this.abandoned = 0;
  }

  async listen(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://fake");
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text || undefined;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // kept as text; the route answers 400
        }
        const rec = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body };
        this.requests.push(rec);
        void this.route(rec, res).catch(() => res.socket?.destroy());
      });
    });
    server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.once("close", () => this.sockets.delete(s));
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.closing = true;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async route(req: FakeCartesiaRequest, res: ServerResponse): Promise<void> {
    if (req.method === "GET" && req.path === "/") return json(res, 200, { ok: true, version: LATEST_VERSION });
    const version = header(req.headers, "cartesia-version");
    if (!version || !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
      return text(res, 400, "Bad Request: the Cartesia-Version header is required (YYYY-MM-DD)");
    }
    const refuse = (status: number, title: string, message: string, code: string | null = null) =>
      refusal(res, version, status, title, message, code);
    if (this.mode.hang) return; // the socket is destroyed by close()
    if (this.mode.latencyMs) await sleep(this.mode.latencyMs);
    const bearer = /^Bearer (.+)$/.exec(header(req.headers, "authorization") ?? "")?.[1];
    const key = header(req.headers, "x-api-key") ?? bearer;
    if (!key) return refuse(401, "Unauthorized", "No API key was provided. Send it in the Authorization header.");
    if (key !== this.apiKey) return refuse(401, "Unauthorized", "Invalid API key");
    const fail = this.mode.fail;
    if (fail === 401) return refuse(401, "Unauthorized", "Invalid API key");
    if (fail === 402)
      return refuse(402, "Payment Required", "You have run out of credits. Upgrade your plan or buy more credits.", "insufficient_credits");
    if (fail === 403) return refuse(403, "Forbidden", "This API key cannot use this resource.");
    if (fail === 429)
      return refuse(429, "Too many concurrent requests", "You have exceeded your plan's concurrency limit.", "concurrency_limited");
    if (fail)
      return refuse(
        fail,
        fail === 503 ? "Service Unavailable" : "Internal Server Error",
        "Something went wrong on our side. Please try again.",
      );

    if (req.method === "GET" && req.path === "/voices") return this.listVoices(req, res, refuse);
    const one = /^\/voices\/([^/]+)$/.exec(req.path);
    if (req.method === "GET" && one) {
      const v = this.voices.find((x) => x.id === decodeURIComponent(one[1]));
      return v ? json(res, 200, voiceObject(v)) : refuse(404, "Not Found", "Voice not found");
    }
    if (req.method === "POST" && req.path === "/tts/sse") return this.speech(req, res, refuse);
    return refuse(404, "Not Found", `No route ${req.method} ${req.path}`);
  }

  private listVoices(req: FakeCartesiaRequest, res: ServerResponse, refuse: Refuse): void {
    const limit = Number(req.query.get("limit") ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return refuse(400, "Bad Request", "limit must be between 1 and 100");
    let from = 0;
    const after = req.query.get("starting_after");
    if (after) {
      const i = this.voices.findIndex((v) => v.id === after);
      if (i < 0) return refuse(400, "Bad Request", "starting_after does not name a voice");
      from = i + 1;
    }
    const data = this.voices.slice(from, from + limit).map(voiceObject);
    const hasMore = from + limit < this.voices.length;
    json(res, 200, { data, has_more: hasMore, next_page: hasMore ? data[data.length - 1].id : null });
  }

  private async speech(req: FakeCartesiaRequest, res: ServerResponse, refuse: Refuse): Promise<void> {
    const b = req.body;
    if (!b || typeof b !== "object") return refuse(400, "Bad Request", "The request body must be JSON");
    if (typeof b.model_id !== "string" || !b.model_id) return refuse(400, "Bad Request", "model_id is required");
    if (typeof b.transcript !== "string") return refuse(400, "Bad Request", "transcript is required");
    if (b.voice?.mode !== "id" || typeof b.voice.id !== "string") return refuse(400, "Bad Request", 'voice must be {mode: "id", id}');
    const fmt = b.output_format ?? {};
    if (fmt.container !== "raw") return refuse(400, "Bad Request", "SSE output_format.container must be raw");
    if (fmt.encoding !== "pcm_s16le") return refuse(400, "Bad Request", `The fake only speaks pcm_s16le, not ${fmt.encoding}`);
    if (!RATES.includes(fmt.sample_rate)) return refuse(400, "Bad Request", `Invalid sample_rate ${fmt.sample_rate}`);
    const voiceId = b.voice.id as string;
    if ((this.mode.deleted ?? []).includes(voiceId) || !this.voices.some((v) => v.id === voiceId)) {
      return refuse(404, "Not Found", `Voice ${voiceId} not found`, "voice_not_found");
    }
    const garbage = this.mode.garbage;
    if (garbage === "html") return html(res, 200, "<html><body>Welcome to nginx!</body></html>");
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    let cutHere = false;
    res.once("close", () => {
      if (!res.writableFinished && !cutHere && !this.closing) this.abandoned++;
    });
    const ctx = typeof b.context_id === "string" ? { context_id: b.context_id } : {};
    const send = (ev: Record<string, unknown>) => res.write(`data: ${JSON.stringify({ ...ev, ...ctx })}\n\n`);
    if (garbage === "bad-json") return void res.end('data: {"type":"chunk","data":\n\n');
    if (garbage === "no-events") return void res.end("hello, this is not an event stream\n");
    if (garbage === "no-audio") {
      send({ type: "done", done: true, status_code: 200 });
      return void res.end();
    }

    const rate = fmt.sample_rate as number;
    const speech = speak(b.transcript, rate);
    const bytes = pcmBytes(speech.pcm);
    const ranges = chunkRanges(bytes.length, rate, this.mode.chunkMs ?? 100, this.mode.oddChunks === true);
    let wordAt = 0;
    for (let i = 0; i < ranges.length; i++) {
      if (i > 0 && this.mode.chunkDelayMs) await sleep(this.mode.chunkDelayMs);
      if (res.destroyed) return;
      if (i === this.mode.stallAfterChunks) return; // connection left open, nothing more sent
      if (i === this.mode.closeAfterChunks) {
        cutHere = true; // the fake's doing, not the client's
        // Bun's node:http drops writes still queued when the socket ends: let them go out first.
        await sleep(20);
        // FIN after what was written, without the last chunk of the chunked body: a premature close.
        return void res.socket?.end();
      }
      if (i === this.mode.errorAfterChunks) {
        send({
          type: "error",
          done: true,
          status_code: 500,
          title: "Generation failed",
          message: "The model stopped unexpectedly.",
          request_id: REQUEST_ID,
          error_code: null,
        });
        return void res.end();
      }
      const [from, to] = ranges[i];
      const data = garbage === "bad-base64" ? "%%not-base64%%" : bytes.subarray(from, to).toString("base64");
      send({ type: "chunk", data, done: false, status_code: 206, step_time: 12.5 });
      // Word timings follow the audio they describe, grouped per chunk (as Cartesia interleaves them).
      const heard = Math.floor(to / 2) / rate;
      const ready = speech.words.slice(wordAt).filter((w) => w.end <= heard + 1e-9);
      if (ready.length > 0) {
        wordAt += ready.length;
        send({ type: "timestamps", done: false, status_code: 206, word_timestamps: timestamps(ready) });
      }
    }
    const rest = speech.words.slice(wordAt);
    if (rest.length > 0) send({ type: "timestamps", done: false, status_code: 206, word_timestamps: timestamps(rest) });
    send({ type: "done", done: true, status_code: 200 });
    res.end();
  }
}

type Refuse = (status: number, title: string, message: string, code?: string | null) => void;

function timestamps(words: Array<{ text: string; start: number; end: number }>) {
  return { words: words.map((w) => w.text), start: words.map((w) => w.start), end: words.map((w) => w.end) };
}

function voiceObject(v: FakeVoice): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: v.id,
    name: v.name,
    description: v.description,
    language: v.language,
    is_public: !v.is_owner,
    is_owner: v.is_owner === true,
    created_at: "2025-01-01T00:00:00Z",
    preview_file_url: null,
  };
  if (v.gender !== undefined) out.gender = v.gender;
  if (v.country !== undefined) out.country = v.country;
  return out;
}

/** Cartesia's error body for the request's version (2.8). */
function refusal(res: ServerResponse, version: string, status: number, title: string, message: string, code: string | null): void {
  if (version >= "2026-03-01") return json(res, status, { error_code: code, title, message, request_id: REQUEST_ID });
  text(res, status, `${title}: ${message}`);
}

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return typeof v === "string" ? v : undefined;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const t = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(t) });
  res.end(t);
}

function text(res: ServerResponse, status: number, t: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(t) });
  res.end(t);
}

function html(res: ServerResponse, status: number, t: string): void {
  res.writeHead(status, { "content-type": "text/html", "content-length": Buffer.byteLength(t) });
  res.end(t);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
