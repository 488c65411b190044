// Implements: the hosted Cartesia voice engine (docs/architecture.md "Voice engines"; service spec
// "Voice catalogue"): streamed speech with word timings over `POST /tts/sse` (docs/providers.md
// 2.4), the account's voices (2.6) and the key check (2.7). Lip-sync comes from the audio, so
// `phonemes` stay empty; the box resamples the raw PCM to 48 kHz itself.
import type {
  ProviderClientOptions,
  SynthesizeOptions,
  Utterance,
  UtteranceChunk,
  VoiceEngine,
  VoiceEngineInfo,
  WordTiming,
} from "../engine.ts";
import { invalidVoiceId, noVoice } from "./cartesia-errors.ts";
import type { CartesiaConnection } from "./cartesia-http.ts";
import { sseSpeech } from "./cartesia-stream.ts";
import { CARTESIA_PROVIDER, checkKey, listVoices, type CartesiaVoiceRow } from "./cartesia-voices.ts";
import {
  CARTESIA_DEFAULT_MODEL,
  CARTESIA_DEFAULT_SAMPLE_RATE,
  CARTESIA_SAMPLE_RATES,
  CARTESIA_VERSION,
  sseRequestBody,
  VOICE_ID_PATTERN,
  type CartesiaSampleRate,
} from "./cartesia-wire.ts";
import { warmConnection } from "../../net/warm-connection.ts";

export interface CartesiaEngineOptions extends ProviderClientOptions {
  /** `model_id`; default "sonic-3". */
  model?: string;
  /** Raw s16le output rate; default 24000. */
  sampleRate?: CartesiaSampleRate;
  /** `Cartesia-Version` header; default 2026-03-01 (JSON errors). */
  version?: string;
  /** Voice id used when a call names none; unset = the first voice the account lists (asked once). */
  defaultVoice?: string;
  /** Language the voice speaks when a call names none (a tag such as "en"); none = Cartesia's default. */
  language?: string;
  /** Upper bound on the voices list (fetched 100 a page). Default 1000. */
  maxVoices?: number;
}

/** A call's options: the engine's, plus the language to speak (same voice, another language: 2.9). */
export interface CartesiaSynthesizeOptions extends SynthesizeOptions {
  signal?: AbortSignal;
  /** A language tag ("es", "pt-br"); sent as its primary subtag. */
  language?: string;
}

export const CARTESIA_INFO: VoiceEngineInfo = { label: "Cartesia", local: false, byo: true, clone: false, prepare: false };

const DEFAULT_TIMEOUT_MS = 10_000;

export class CartesiaEngine implements VoiceEngine {
  readonly id = CARTESIA_PROVIDER;
  readonly ready = true;
  readonly info = CARTESIA_INFO;
  readonly model: string;
  readonly sampleRate: CartesiaSampleRate;
  private readonly conn: CartesiaConnection;
  /** The options' `defaultVoice`; without one, a call that names no voice gets the account's first. */
  readonly defaultVoiceId?: string;
  private listedVoice: Promise<string> | null = null;
  private readonly language?: string;
  private readonly maxVoices: number;

  constructor(options: CartesiaEngineOptions) {
    if (options.sampleRate !== undefined && !CARTESIA_SAMPLE_RATES.includes(options.sampleRate)) {
      throw new RangeError(`Cartesia cannot send ${options.sampleRate} Hz; use one of ${CARTESIA_SAMPLE_RATES.join(", ")}`);
    }
    this.model = options.model ?? CARTESIA_DEFAULT_MODEL;
    this.sampleRate = options.sampleRate ?? CARTESIA_DEFAULT_SAMPLE_RATE;
    this.defaultVoiceId = options.defaultVoice || undefined;
    this.language = options.language;
    this.maxVoices = Math.max(1, options.maxVoices ?? 1000);
    this.conn = {
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      version: options.version ?? CARTESIA_VERSION,
      fetch: options.fetch ?? fetch,
    };
  }

  /**
   * Speech as Cartesia sends it: chunks of samples, and word timings (ms from the utterance's first
   * sample) in chunks of their own with no samples. Aborting `signal` ends the request and rethrows
   * the signal's reason.
   */
  warm(): Promise<void> {
    const send = this.conn.fetch; // called unbound, as cartesia-http.ts calls it
    return warmConnection((url, init) => send(url, init), `${this.conn.baseUrl.replace(/\/+$/, "")}/voices`);
  }

  async *stream(text: string, options: CartesiaSynthesizeOptions = {}): AsyncGenerator<UtteranceChunk> {
    // An empty slot ("") names no voice.
    const wanted = options.voice || this.defaultVoiceId;
    if (wanted !== undefined) checkVoiceId(wanted);
    if (text.trim() === "") return;
    const voiceId = wanted ?? (await this.firstListedVoice());
    const body = sseRequestBody({
      model: this.model,
      transcript: text,
      voiceId,
      sampleRate: this.sampleRate,
      language: options.language ?? this.language,
      rate: options.rate,
    });
    yield* sseSpeech(this.conn, voiceId, body, this.sampleRate, options.signal);
  }

  /** The whole of `stream`, joined. */
  async synthesize(text: string, options: CartesiaSynthesizeOptions = {}): Promise<Utterance> {
    const parts: Int16Array[] = [];
    const words: WordTiming[] = [];
    let length = 0;
    for await (const chunk of this.stream(text, options)) {
      if (chunk.pcm.length > 0) {
        parts.push(chunk.pcm);
        length += chunk.pcm.length;
      }
      if (chunk.words) words.push(...chunk.words);
    }
    const pcm = new Int16Array(length);
    let at = 0;
    for (const p of parts) {
      pcm.set(p, at);
      at += p.length;
    }
    words.sort((a, b) => a.startMs - b.startMs);
    return { pcm, sampleRate: this.sampleRate, phonemes: [], words, durationMs: (length / this.sampleRate) * 1000 };
  }

  voices(): Promise<CartesiaVoiceRow[]> {
    return listVoices(this.conn, this.model, this.maxVoices);
  }

  /**
   * `GET /voices?limit=1`: resolves when Cartesia accepts the key (Cartesia has no restricted keys,
   * so `restricted` is always false); otherwise VoiceProviderError.
   */
  async checkKey(): Promise<{ restricted: boolean }> {
    await checkKey(this.conn);
    return { restricted: false };
  }

  /** The account's first voice, asked once; a failed ask is asked again next time. */
  private firstListedVoice(): Promise<string> {
    this.listedVoice ??= listVoices(this.conn, this.model, 1).then((rows) => {
      const id = rows[0]?.id;
      if (id === undefined) throw noVoice();
      return checkVoiceId(id);
    });
    return this.listedVoice.catch((err) => {
      this.listedVoice = null;
      throw err;
    });
  }
}

/** Checked before any request: a malformed id is a voice that does not exist. */
function checkVoiceId(id: string): string {
  if (!VOICE_ID_PATTERN.test(id)) throw invalidVoiceId(id);
  return id;
}
