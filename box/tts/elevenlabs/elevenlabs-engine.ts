// Implements: the ElevenLabs hosted voice engine (docs/architecture.md "Voice engines"; service-spec "Voice
// catalogue"): speech streamed over HTTP with character timestamps (docs/providers.md 1.2), the
// voice list (1.5), the key check (1.6) and the failure mapping (1.7).
import type {
  ProviderClientOptions,
  SynthesizeOptions,
  Utterance,
  UtteranceChunk,
  VoiceEngine,
  VoiceEngineInfo,
  WordTiming,
} from "../engine.ts";
import { badVoiceId, brokenAnswer, ElevenLabsError, noKey, VOICE_ID } from "./elevenlabs-errors.ts";
import { abortReason, bodyLines, Deadline, getJson, send, type ElevenLabsRequest, type FetchLike } from "./elevenlabs-http.ts";
import { parseTimestampLine, PcmDecoder, WordTimer } from "./elevenlabs-timings.ts";
import {
  ELEVENLABS_PROVIDER,
  elevenLabsVoiceRow,
  LANGUAGE_CODE_MODELS,
  readVoicesPage,
  type ElevenLabsVoiceRow,
} from "./elevenlabs-voices.ts";
import { primaryLanguage } from "../voice-language.ts";
import { warmConnection } from "../../net/warm-connection.ts";

/** Headerless s16le mono; the box resamples to 48 kHz itself. */
export type ElevenLabsPcmFormat = "pcm_8000" | "pcm_16000" | "pcm_22050" | "pcm_24000" | "pcm_32000" | "pcm_44100" | "pcm_48000";

export interface ElevenLabsEngineOptions extends Omit<ProviderClientOptions, "baseUrl"> {
  /** Default https://api.elevenlabs.io. */
  baseUrl?: string;
  /** Default eleven_flash_v2_5: ~75 ms, 32 languages, takes `language_code`. */
  modelId?: string;
  /** Default pcm_24000: exactly half of 48 kHz, the cheapest rate to stream and upsample well. */
  outputFormat?: ElevenLabsPcmFormat;
  /** Voice id used when a call names none (default "George", a premade voice). */
  defaultVoice?: string;
  /** Bound on `GET /v2/voices` pages of 100 (default 10). */
  maxVoicePages?: number;
}

export interface ElevenLabsSynthesizeOptions extends SynthesizeOptions {
  signal?: AbortSignal;
  /** A language tag ("es", "pt-br"); sent as `language_code` with the v2.5 models only. */
  language?: string;
}

export const ELEVENLABS_DEFAULTS = {
  baseUrl: "https://api.elevenlabs.io",
  modelId: "eleven_flash_v2_5",
  outputFormat: "pcm_24000",
  defaultVoice: "JBFqnCBsd6RMkjVDRZzb",
  timeoutMs: 10_000,
  maxVoicePages: 10,
} as const;

export const ELEVENLABS_INFO: VoiceEngineInfo = { label: "ElevenLabs", local: false, byo: true, clone: false, prepare: false };

const PAGE_SIZE = 100;
// One line holds one chunk of base64 audio (tens of KB); far more means it is not the protocol.
const MAX_LINE_CHARS = 8 * 1024 * 1024;
// `voice_settings.speed` range the realtime schema documents.
const MIN_SPEED = 0.7;
const MAX_SPEED = 1.2;

export class ElevenLabsEngine implements VoiceEngine {
  readonly id = ELEVENLABS_PROVIDER;
  readonly ready = true;
  readonly info = ELEVENLABS_INFO;
  readonly sampleRate: number;
  readonly modelId: string;
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: FetchLike;
  private readonly outputFormat: ElevenLabsPcmFormat;
  private readonly defaultVoice: string;
  get defaultVoiceId(): string {
    return this.defaultVoice;
  }
  private readonly maxVoicePages: number;

  constructor(options: ElevenLabsEngineOptions = {}) {
    this.baseUrl = options.baseUrl || ELEVENLABS_DEFAULTS.baseUrl;
    this.apiKey = options.apiKey ?? "";
    this.timeoutMs = options.timeoutMs ?? ELEVENLABS_DEFAULTS.timeoutMs;
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.modelId = options.modelId || ELEVENLABS_DEFAULTS.modelId;
    this.outputFormat = options.outputFormat ?? ELEVENLABS_DEFAULTS.outputFormat;
    const rate = /^pcm_(\d+)$/.exec(this.outputFormat);
    if (!rate) throw new RangeError(`ElevenLabs output format must be raw PCM (pcm_<rate>), not "${this.outputFormat}"`);
    this.sampleRate = Number(rate[1]);
    this.defaultVoice = options.defaultVoice || ELEVENLABS_DEFAULTS.defaultVoice;
    this.maxVoicePages = Math.max(1, options.maxVoicePages ?? ELEVENLABS_DEFAULTS.maxVoicePages);
  }

  /**
   * Speech as it arrives: each chunk is the PCM of one line of the stream, with the words that
   * line completed (ms from the first sample). A last chunk with no PCM may carry the last word.
   */
  warm(): Promise<void> {
    return warmConnection((url, init) => this.fetchFn(new URL(url), init ?? {}), `${this.baseUrl.replace(/\/+$/, "")}/v1/models`);
  }

  async *stream(text: string, options: ElevenLabsSynthesizeOptions = {}): AsyncGenerator<UtteranceChunk> {
    const voiceId = options.voice ?? this.defaultVoice;
    if (!VOICE_ID.test(voiceId)) throw badVoiceId(voiceId);
    const apiKey = this.key();
    if (options.signal?.aborted) throw abortReason(options.signal);
    if (text.trim() === "") return;
    const req: ElevenLabsRequest = {
      ...this.request("speech", apiKey, options.signal),
      method: "POST",
      path: `/v1/text-to-speech/${voiceId}/stream/with-timestamps`,
      query: { output_format: this.outputFormat },
      body: this.speechBody(text, options),
      voiceId,
    };
    const deadline = new Deadline(this.timeoutMs, options.signal);
    try {
      const res = await send(req, deadline);
      if (!res.body) throw brokenAnswer("speech", "the answer has no body");
      const pcm = new PcmDecoder();
      const words = new WordTimer();
      const lines = bodyLines(res.body, () => deadline.touch(), MAX_LINE_CHARS);
      for (;;) {
        let next: IteratorResult<string>;
        let chunk: UtteranceChunk;
        try {
          next = await lines.next();
          if (next.done) break;
          const line = parseTimestampLine(next.value);
          const done = line.alignment ? words.push(line.alignment) : [];
          chunk = { pcm: pcm.push(line.audio), sampleRate: this.sampleRate, words: done };
        } catch (err) {
          throw deadline.failure("speech", err);
        }
        if (chunk.pcm.length === 0 && chunk.words!.length === 0) continue;
        deadline.pause();
        yield chunk;
        deadline.touch();
      }
      if (pcm.samples === 0) throw brokenAnswer("speech", "the stream ended without any audio");
      const last = words.finish();
      if (last.length > 0) yield { pcm: new Int16Array(0), sampleRate: this.sampleRate, words: last };
    } finally {
      deadline.release();
    }
  }

  /** `stream`, collected. Phonemes stay empty: the box lip-syncs from the audio itself. */
  async synthesize(text: string, options: ElevenLabsSynthesizeOptions = {}): Promise<Utterance> {
    const parts: Int16Array[] = [];
    const words: WordTiming[] = [];
    let length = 0;
    for await (const chunk of this.stream(text, options)) {
      parts.push(chunk.pcm);
      length += chunk.pcm.length;
      words.push(...(chunk.words ?? []));
    }
    const pcm = new Int16Array(length);
    let at = 0;
    for (const p of parts) {
      pcm.set(p, at);
      at += p.length;
    }
    return { pcm, sampleRate: this.sampleRate, phonemes: [], words, durationMs: (length / this.sampleRate) * 1000 };
  }

  /** Every voice the key can see (`GET /v2/voices`, all pages up to `maxVoicePages`). */
  async voices(): Promise<ElevenLabsVoiceRow[]> {
    const apiKey = this.key();
    const rows: ElevenLabsVoiceRow[] = [];
    const seen = new Set<string>();
    let token: string | null = null;
    for (let page = 0; page < this.maxVoicePages; page++) {
      const json = await getJson({
        ...this.request("voices", apiKey),
        method: "GET",
        path: "/v2/voices",
        query: { page_size: String(PAGE_SIZE), include_total_count: "false", next_page_token: token ?? undefined },
      });
      const list = readVoicesPage(json);
      if (!list) throw brokenAnswer("voices", "the body has no voices list");
      for (const raw of list.voices) {
        const row = elevenLabsVoiceRow(raw, this.modelId);
        if (row && !seen.has(row.id)) {
          seen.add(row.id);
          rows.push(row);
        }
      }
      token = list.nextPageToken;
      if (!token) break;
    }
    return rows;
  }

  /**
   * The free `GET /v1/user`. A key without the `user_read` scope answers 401 missing_permissions
   * yet is valid (docs/providers.md 1.6): that resolves `{restricted: true}`. Anything else throws.
   */
  async checkKey(): Promise<{ restricted: boolean }> {
    const apiKey = this.key();
    try {
      const json = await getJson({ ...this.request("key check", apiKey), method: "GET", path: "/v1/user" });
      if (!json || typeof json !== "object") throw brokenAnswer("key check", "the body is not a user object");
      return { restricted: false };
    } catch (err) {
      if (err instanceof ElevenLabsError && err.code === "missing_permissions") return { restricted: true };
      throw err;
    }
  }

  private key(): string {
    if (!this.apiKey) throw noKey();
    return this.apiKey;
  }

  private request(call: ElevenLabsRequest["call"], apiKey: string, signal?: AbortSignal) {
    return { call, apiKey, signal, fetch: this.fetchFn, baseUrl: this.baseUrl, timeoutMs: this.timeoutMs };
  }

  private speechBody(text: string, options: ElevenLabsSynthesizeOptions): Record<string, unknown> {
    const body: Record<string, unknown> = { text, model_id: this.modelId };
    if (options.language && LANGUAGE_CODE_MODELS.has(this.modelId)) body.language_code = primaryLanguage(options.language);
    const rate = options.rate;
    if (rate !== undefined && Number.isFinite(rate) && rate > 0 && rate !== 1) {
      body.voice_settings = { speed: Math.min(MAX_SPEED, Math.max(MIN_SPEED, rate)) };
    }
    return body;
  }
}
