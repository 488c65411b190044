// Implements: the hosted streaming speech recognition engine behind the AsrEngine seam of
// "Voice socket `WSS /api/voice/ws`": Deepgram's live protocol (`/v1/listen` over WebSocket,
// `Authorization: Token`, binary linear16 in, `Results`/`UtteranceEnd`/`Metadata` out,
// `KeepAlive` and `CloseStream` control messages). A refused key is 503 (socket code 4005).
// The same client serves self-hosted recognisers that speak this protocol (WhisperLiveKit's
// `/v1/listen`, docs/providers.md 4): no key (no Authorization header) or a Bearer key.
import WebSocket, { type RawData } from "ws";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { ASR_SAMPLE_RATE, AsrStreamBase, asrUnavailable, joinText, type AsrEngine, type AsrStartOptions, type AsrStream } from "./asr.ts";

export const DEEPGRAM_ID = "deepgram";
export const DEEPGRAM_DEFAULT_URL = "wss://api.deepgram.com";

export interface DeepgramOptions {
  /** Absent: no Authorization header (a self-hosted server without auth). */
  apiKey?: string;
  /** `token` (Deepgram: `Authorization: Token <key>`) or `bearer` (self-hosted servers). */
  auth?: "token" | "bearer";
  /** Base address (wss/ws/https/http); `/v1/listen` is appended unless present. */
  url?: string;
  model?: string;
  /** Silence (ms) after which Deepgram marks `speech_final`; false turns endpointing off. */
  endpointingMs?: number | false;
  /** Gap in words (ms, >= 1000) that yields an `UtteranceEnd`; null for none. */
  utteranceEndMs?: number | null;
  /** KeepAlive period while no audio is sent (Deepgram closes an idle stream after ~10 s). */
  keepAliveMs?: number;
  connectTimeoutMs?: number;
  /** How long finish() waits for the last results after CloseStream. */
  finishTimeoutMs?: number;
  /** Extra query parameters (e.g. `smart_format`). */
  params?: Record<string, string>;
}

const DEFAULTS = {
  url: DEEPGRAM_DEFAULT_URL,
  model: "nova-2",
  endpointingMs: 300,
  utteranceEndMs: 1000,
  keepAliveMs: 4000,
  connectTimeoutMs: 10_000,
  finishTimeoutMs: 10_000,
  params: {},
  auth: "token",
} satisfies Omit<Required<DeepgramOptions>, "apiKey">;

type Settings = Omit<Required<DeepgramOptions>, "apiKey"> & { apiKey?: string };

/** The `/v1/listen` address for one stream. */
export function listenUrl(
  options: Pick<DeepgramOptions, "url" | "model" | "endpointingMs" | "utteranceEndMs" | "params">,
  start: AsrStartOptions,
): string {
  const base = (options.url ?? DEFAULTS.url).replace(/^http/i, "ws").replace(/\/+$/, "");
  const url = new URL(base.endsWith("/v1/listen") ? base : `${base}/v1/listen`);
  const q = url.searchParams;
  q.set("encoding", "linear16");
  q.set("sample_rate", String(start.sampleRate));
  q.set("channels", "1");
  q.set("interim_results", "true");
  q.set("punctuate", "true");
  q.set("model", options.model ?? DEFAULTS.model);
  const endpointing = options.endpointingMs ?? DEFAULTS.endpointingMs;
  q.set("endpointing", endpointing === false ? "false" : String(endpointing));
  const utteranceEnd = options.utteranceEndMs === undefined ? DEFAULTS.utteranceEndMs : options.utteranceEndMs;
  if (utteranceEnd !== null) q.set("utterance_end_ms", String(utteranceEnd));
  if (start.language) q.set("language", start.language);
  for (const [k, v] of Object.entries(options.params ?? {})) q.set(k, v);
  return url.toString();
}

/** HTTP status of a refused upgrade → the failure the socket reports. */
export function upgradeFailure(status: number, detail: string): UpstreamError {
  const why = detail ? `: ${detail}` : "";
  if (status === 401 || status === 403) return asrUnavailable(DEEPGRAM_ID, `the API key was refused (HTTP ${status})${why}`);
  if (status === 429 || status >= 500) return new UpstreamError(`${DEEPGRAM_ID}: HTTP ${status}${why}`, 502, true);
  return asrUnavailable(DEEPGRAM_ID, `the stream was refused (HTTP ${status})${why}`);
}

export class DeepgramEngine implements AsrEngine {
  readonly id = DEEPGRAM_ID;
  private readonly o: Settings;

  constructor(options: DeepgramOptions) {
    this.o = { ...DEFAULTS, ...options } as Settings;
  }

  async start(options: AsrStartOptions): Promise<AsrStream> {
    if (options.sampleRate !== ASR_SAMPLE_RATE) throw asrUnavailable(this.id, `only ${ASR_SAMPLE_RATE} Hz audio`);
    // Deepgram's own service needs a key; a self-hosted server at another address may take none.
    if (!this.o.apiKey && this.o.url === DEEPGRAM_DEFAULT_URL) throw asrUnavailable(this.id, "no API key");
    const ws = await connect(listenUrl(this.o, options), this.o);
    return new DeepgramStream(ws, this.o);
  }
}

function connect(url: string, o: Settings): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err: UpstreamError | null) => {
      if (settled) return;
      settled = true;
      if (err) {
        ws.removeAllListeners();
        ws.on("error", () => undefined); // late socket errors after the refusal are expected
        ws.terminate();
        reject(err);
      } else {
        ws.removeAllListeners();
        ws.on("error", () => undefined); // until the stream takes over (it reads the close)
        resolve(ws);
      }
    };
    const headers: Record<string, string> = o.apiKey ? { Authorization: `${o.auth === "bearer" ? "Bearer" : "Token"} ${o.apiKey}` } : {};
    const ws = new WebSocket(url, { headers, handshakeTimeout: o.connectTimeoutMs });
    ws.once("open", () => settle(null));
    ws.once("unexpected-response", (_req, res) => {
      const chunks: Buffer[] = [];
      const done = () =>
        settle(upgradeFailure(res.statusCode ?? 0, describeRefusal(Buffer.concat(chunks).toString("utf8"), res.headers["dg-error"])));
      res.on("data", (c: Buffer) => chunks.length < 16 && chunks.push(c));
      res.once("end", done);
      res.once("error", done);
    });
    ws.once("error", (err) => settle(new UpstreamError(`${DEEPGRAM_ID}: cannot connect (${err.message})`, 502, true)));
  });
}

function describeRefusal(body: string, header: string | string[] | undefined): string {
  try {
    const parsed = JSON.parse(body) as { err_msg?: string; err_code?: string };
    if (parsed.err_msg) return parsed.err_code ? `${parsed.err_code} ${parsed.err_msg}` : parsed.err_msg;
  } catch {}
  return String(header ?? body.slice(0, 200)).trim();
}

interface ResultsMessage {
  type: "Results";
  is_final?: boolean;
  speech_final?: boolean;
  channel?: { alternatives?: { transcript?: string }[] };
}

class DeepgramStream extends AsrStreamBase {
  /** `is_final` pieces of the utterance in progress. */
  private settled: string[] = [];
  private lastAudioAt = Date.now();
  private readonly keepAlive: NodeJS.Timeout;
  private readonly closed: Promise<void>;
  private failed: UpstreamError | null = null;
  /** Set by the server's Metadata (sent last, after CloseStream). */
  metadata: Record<string, unknown> | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly o: Settings,
  ) {
    super();
    ws.on("message", (data, isBinary) => !isBinary && this.onMessage(data));
    ws.on("error", () => undefined); // the close that follows carries the outcome
    const onClose = (code: number, reason: Buffer, resolve: () => void) => {
      clearInterval(this.keepAlive);
      // 1000 after our CloseStream is the normal end; anything else loses results.
      if (this.state === "open" || (this.state === "finishing" && code !== 1000)) {
        this.fail(new UpstreamError(`${DEEPGRAM_ID}: stream ended (${code}${reason.length ? ` ${reason}` : ""})`, 502, true));
      }
      resolve();
    };
    this.closed = new Promise((resolve) => {
      // Closed between the upgrade and here: no close event is coming.
      if (ws.readyState === WebSocket.CLOSED) queueMicrotask(() => onClose(1006, Buffer.alloc(0), resolve));
      else ws.once("close", (code, reason) => onClose(code, reason, resolve));
    });
    this.keepAlive = setInterval(
      () => {
        if (Date.now() - this.lastAudioAt >= this.o.keepAliveMs) this.send(JSON.stringify({ type: "KeepAlive" }));
      },
      Math.max(10, Math.floor(o.keepAliveMs / 2)),
    );
  }

  write(pcm: Int16Array): void {
    if (this.state !== "open" || !pcm.length) return;
    this.lastAudioAt = Date.now();
    this.send(pcm); // ws copies the view into the frame it masks
  }

  async finish(): Promise<string> {
    if (this.state === "open") {
      this.state = "finishing";
      this.send(JSON.stringify({ type: "CloseStream" }));
      const timer = setTimeout(() => this.ws.terminate(), this.o.finishTimeoutMs);
      await this.closed;
      clearTimeout(timer);
      if (this.failed) throw this.failed;
      this.settleUtterance(); // whatever is_final text had no endpoint yet
      this.state = "closed";
      return this.transcript();
    }
    await this.closed;
    if (this.failed) throw this.failed;
    return this.transcript();
  }

  close(): void {
    if (this.state === "closed") return;
    this.state = "closed";
    clearInterval(this.keepAlive);
    this.ws.terminate();
  }

  protected override fail(err: UpstreamError): void {
    this.failed = err;
    super.fail(err);
  }

  /** Deepgram's `Finalize`: the pending words come back as a final at once; the stream stays open. */
  finalize(): void {
    if (this.state === "open") this.send(JSON.stringify({ type: "Finalize" }));
  }

  private send(data: string | Int16Array): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(data);
  }

  private onMessage(data: RawData): void {
    let msg: { type?: string };
    try {
      msg = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (msg.type === "Results") this.onResults(msg as ResultsMessage);
    else if (msg.type === "UtteranceEnd") this.settleUtterance();
    else if (msg.type === "Metadata") this.metadata = msg as Record<string, unknown>;
  }

  private onResults(msg: ResultsMessage): void {
    const text = msg.channel?.alternatives?.[0]?.transcript ?? "";
    if (msg.is_final) {
      if (text.trim()) this.settled.push(text);
      if (msg.speech_final) this.settleUtterance();
      else this.partial(joinText(this.settled));
    } else {
      this.partial(joinText([...this.settled, text]));
    }
  }

  private settleUtterance(): void {
    const text = joinText(this.settled);
    this.settled = [];
    this.settle(text);
  }
}
