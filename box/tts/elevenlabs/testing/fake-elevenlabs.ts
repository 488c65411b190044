// A local ElevenLabs on 127.0.0.1:0 (node:http, so it runs under vitest on Node and in Bun),
// speaking the wire of docs/providers.md 1: `xi-api-key` on every request; `POST
// /v1/text-to-speech/{voice_id}/stream/with-timestamps?output_format=pcm_*` as NDJSON lines of
// base64 PCM and character alignment; `GET /v2/voices` paged by `next_page_token`, `GET
// /v1/voices`, `GET /v1/user`; error bodies `{"detail":{"status","message"}}`. `fault` switches
// in bad behaviour; every request is recorded.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fakeSpeechLines } from "./fake-speech.ts";
import { fakeVoices, type FakeVoice } from "./fake-voices.ts";

export type FakeFault =
  | "invalid_key"
  | "quota_exceeded"
  | "unusual_activity"
  | "missing_permissions"
  | "too_many_concurrent"
  | "system_busy"
  | "quota_429"
  | "server_error"
  | "proxy_502"
  | "route_missing"
  /** 200 whose body is not JSON lines / not JSON. */
  | "garbage"
  /** Speech lines without `audio_base64`. */
  | "missing_audio"
  /** Accepts the request and never answers. */
  | "hang"
  /** Sends the 200 headers, then nothing. */
  | "hang_after_headers"
  /** Sends the first line (or part of the JSON), then nothing, socket left open. */
  | "stall"
  /** Sends the first line (or part of the JSON), then destroys the socket. */
  | "cut";

export interface FakeElevenLabsOptions {
  apiKey: string;
  /** A valid key without `user_read`/`voices_read`: 401 missing_permissions there, speech works. */
  scopedKey?: string;
  voices?: FakeVoice[];
  /** Audio per character (default 60). */
  msPerChar?: number;
  /** Characters per streamed line (default 10). */
  charsPerLine?: number;
  /** Pause between streamed lines, as if generating (default 0). */
  lineDelayMs?: number;
  /** Pause before answering any request (default 0). */
  latencyMs?: number;
  oddByteSplit?: boolean;
  relativeTimes?: boolean;
}

export type FakeCall = "speech" | "voices" | "user" | "other";

export interface FakeElevenLabsRequest {
  call: FakeCall;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The client went away before the answer was complete. */
  closedEarly: boolean;
  /** Resolves when the exchange is over (answered, or the connection closed). */
  finished: Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SPEECH = /^\/v1\/text-to-speech\/([^/]+)\/stream\/with-timestamps$/;
const LANGUAGE_CODE_MODELS = new Set(["eleven_flash_v2_5", "eleven_turbo_v2_5"]);

const detail = (status: string, message: string) => ({ detail: { status, message } });
const STATUS_FAULTS: Partial<Record<FakeFault, [number, unknown]>> = {
  invalid_key: [401, detail("invalid_api_key", "Invalid API key")],
  quota_exceeded: [
    401,
    detail(
      "quota_exceeded",
      "This request exceeds your quota of 10000. You have 0 credits remaining, while 43 credits are required for this request.",
    ),
  ],
  unusual_activity: [
    401,
    detail(
      "detected_unusual_activity",
      "Unusual activity detected. Free Tier usage disabled. If you are using a proxy/VPN you might need to purchase a Paid Plan to not trigger our abuse detectors.",
    ),
  ],
  missing_permissions: [
    401,
    detail("missing_permissions", "The API key you used is missing the permission text_to_speech to execute this operation."),
  ],
  too_many_concurrent: [
    429,
    detail(
      "too_many_concurrent_requests",
      "Too many concurrent requests. Your current subscription is associated with a maximum of 2 concurrent requests.",
    ),
  ],
  system_busy: [429, detail("system_busy", "We are experiencing heavy traffic, please try again.")],
  quota_429: [429, detail("quota_exceeded", "This request exceeds your quota of 10000.")],
  server_error: [500, detail("internal_server_error", "An internal server error occurred.")],
  route_missing: [404, { detail: "Not Found" }],
};

export class FakeElevenLabs {
  readonly requests: FakeElevenLabsRequest[] = [];
  /** Bad behaviour for the coming requests; null = behave. */
  fault: FakeFault | null = null;
  /** Which requests `fault` applies to (default all). */
  faultOn: FakeCall | "all" = "all";
  private readonly voiceList: FakeVoice[];
  private readonly sockets = new Set<Socket>();
  private base = "";

  private constructor(
    private readonly server: Server,
    readonly options: FakeElevenLabsOptions,
  ) {
    this.voiceList = options.voices ?? fakeVoices();
  }

  static async start(options: FakeElevenLabsOptions): Promise<FakeElevenLabs> {
    const server = createServer();
    const fake = new FakeElevenLabs(server, options);
    server.on("request", (req, res) => void fake.dispatch(req, res));
    server.on("connection", (s: Socket) => {
      fake.sockets.add(s);
      s.once("close", () => fake.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return fake;
  }

  /** e.g. http://127.0.0.1:40123 (what BOX_ELEVENLABS_BASE_URL would hold). */
  get url(): string {
    return this.base;
  }

  /** Speech with this voice now answers 404 voice_not_found; it leaves the list. */
  deleteVoice(voiceId: string): void {
    const i = this.voiceList.findIndex((v) => v.voice_id === voiceId);
    if (i >= 0) this.voiceList.splice(i, 1);
  }

  of(call: FakeCall): FakeElevenLabsRequest[] {
    return this.requests.filter((r) => r.call === call);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async dispatch(raw: import("node:http").IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(raw.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const c of raw) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text || undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the raw text
    }
    const call: FakeCall = SPEECH.test(url.pathname)
      ? "speech"
      : url.pathname.endsWith("/voices")
        ? "voices"
        : url.pathname === "/v1/user"
          ? "user"
          : "other";
    let settle!: () => void;
    const rec: FakeElevenLabsRequest = {
      call,
      method: raw.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: raw.headers,
      body,
      closedEarly: false,
      finished: new Promise<void>((r) => (settle = r)),
    };
    res.once("close", () => {
      rec.closedEarly = !res.writableFinished;
      settle();
    });
    this.requests.push(rec);
    if (this.options.latencyMs) await sleep(this.options.latencyMs);
    const fault = this.faultOn === "all" || this.faultOn === call ? this.fault : null;
    if (fault === "hang") return;
    if (fault && STATUS_FAULTS[fault]) return json(res, ...STATUS_FAULTS[fault]!);
    if (fault === "proxy_502") return send(res, 502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>");
    const key = raw.headers["xi-api-key"];
    const scoped = typeof key === "string" && key === this.options.scopedKey;
    if (key !== this.options.apiKey && !scoped) return json(res, 401, detail("invalid_api_key", "Invalid API key"));
    if (call === "speech") return this.speech(url, rec, res, fault);
    if (call === "other" || raw.method !== "GET")
      return json(res, call === "other" ? 404 : 405, { detail: call === "other" ? "Not Found" : "Method Not Allowed" });
    if (scoped) {
      const permission = call === "user" ? "user_read" : "voices_read";
      return json(
        res,
        401,
        detail("missing_permissions", `The API key you used is missing the permission ${permission} to execute this operation.`),
      );
    }
    const answer = call === "user" ? this.user(key as string) : this.voicesPage(url);
    if (answer[0] !== 200) return json(res, ...answer);
    return this.playJson(res, JSON.stringify(answer[1]), fault);
  }

  private user(key: string): [number, unknown] {
    return [
      200,
      {
        user_id: "fake-user-1",
        xi_api_key: key,
        is_new_user: false,
        first_name: "Fake",
        subscription: {
          tier: "starter",
          character_count: 1200,
          character_limit: 30000,
          status: "active",
          can_extend_character_limit: false,
        },
      },
    ];
  }

  private voicesPage(url: URL): [number, unknown] {
    if (url.pathname === "/v1/voices") return [200, { voices: this.voiceList }];
    const size = Number(url.searchParams.get("page_size") ?? 10);
    if (!Number.isInteger(size) || size < 1 || size > 100) {
      return [
        422,
        { detail: [{ loc: ["query", "page_size"], msg: "Input should be less than or equal to 100", type: "less_than_equal" }] },
      ];
    }
    const token = url.searchParams.get("next_page_token");
    const from = token
      ? Number(
          Buffer.from(token, "base64url")
            .toString("utf8")
            .replace(/^offset:/, ""),
        )
      : 0;
    const voices = this.voiceList.slice(from, from + size);
    const more = from + size < this.voiceList.length;
    const page: Record<string, unknown> = {
      voices,
      has_more: more,
      next_page_token: more ? Buffer.from(`offset:${from + size}`).toString("base64url") : null,
    };
    if (url.searchParams.get("include_total_count") !== "false") page.total_count = this.voiceList.length;
    return [200, page];
  }

  private async speech(url: URL, rec: FakeElevenLabsRequest, res: ServerResponse, fault: FakeFault | null): Promise<void> {
    if (rec.method !== "POST") return json(res, 405, { detail: "Method Not Allowed" });
    const voiceId = decodeURIComponent(SPEECH.exec(url.pathname)![1]);
    if (!this.voiceList.some((v) => v.voice_id === voiceId)) {
      return json(res, 404, {
        detail: {
          type: "not_found",
          code: "voice_not_found",
          message: `A voice with voice_id '${voiceId}' was not found.`,
          status: "voice_not_found",
          request_id: randomUUID(),
        },
      });
    }
    const body = rec.body as
      | { text?: unknown; model_id?: unknown; language_code?: unknown; voice_settings?: { speed?: unknown } }
      | undefined;
    if (!body || typeof body !== "object" || typeof body.text !== "string") {
      return json(res, 422, { detail: [{ loc: ["body", "text"], msg: "Field required", type: "missing" }] });
    }
    const model = typeof body.model_id === "string" ? body.model_id : "eleven_multilingual_v2";
    if (body.language_code !== undefined && !LANGUAGE_CODE_MODELS.has(model)) {
      return json(res, 400, detail("unsupported_language", `Model '${model}' does not support language_code.`));
    }
    const format = /^pcm_(\d+)$/.exec(url.searchParams.get("output_format") ?? "mp3_44100_128");
    if (!format) return json(res, 422, detail("invalid_output_format", "This fake produces pcm_* output only."));
    const speed = typeof body.voice_settings?.speed === "number" ? body.voice_settings.speed : 1;
    const lines = fakeSpeechLines(body.text, {
      sampleRate: Number(format[1]),
      msPerChar: (this.options.msPerChar ?? 60) / speed,
      charsPerLine: this.options.charsPerLine ?? 10,
      oddByteSplit: this.options.oddByteSplit,
      relativeTimes: this.options.relativeTimes,
    });
    res.writeHead(200, {
      "content-type": "application/json",
      "request-id": randomUUID(),
      "character-cost": String(Array.from(body.text).length),
    });
    if (fault === "hang_after_headers") return void res.flushHeaders();
    const out: string[] = lines.map((l) => JSON.stringify(l) + "\n");
    if (fault === "garbage") out.splice(0, out.length, "<html>not json</html>\n", "oops\n");
    if (fault === "missing_audio") out.splice(0, out.length, ...lines.map((l) => JSON.stringify({ alignment: l.alignment }) + "\n"));
    for (let i = 0; i < out.length; i++) {
      if (gone(res)) return;
      if (i > 0 && this.options.lineDelayMs) await sleep(this.options.lineDelayMs);
      if (gone(res)) return;
      res.write(out[i]);
      if (i === 0 && fault === "stall") return;
      if (i === 0 && fault === "cut") return void setTimeout(() => res.socket?.destroy(), 20);
    }
    res.end();
  }

  private playJson(res: ServerResponse, text: string, fault: FakeFault | null): void {
    if (fault === "garbage") return send(res, 200, "application/json", "<html>not json</html>");
    res.writeHead(200, { "content-type": "application/json" });
    if (fault === "hang_after_headers") return void res.flushHeaders();
    if (fault === "stall") return void res.write(text.slice(0, 20));
    if (fault === "cut") {
      res.write(text.slice(0, 20));
      return void setTimeout(() => res.socket?.destroy(), 20);
    }
    res.end(text);
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json", JSON.stringify(body));
}

function send(res: ServerResponse, status: number, type: string, text: string): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function gone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}
