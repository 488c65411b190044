// Implements: the voice engine seam of the media path (docs/architecture.md "Voice engines", "Embedded
// defaults": voice) and the voice row of "Voice catalogue (`GET /api/voices`)".
// Engines: espeak (embedded), chatterbox (self-hosted server), elevenlabs and cartesia (hosted).
import { UpstreamError } from "../../shared/errors/api-error.ts";

/** One phoneme of an utterance; times in ms from the first sample. */
export interface PhonemeTiming {
  /** IPA, stress marks removed (e.g. "h", "əʊ", "tʃ"). */
  phoneme: string;
  startMs: number;
  endMs: number;
}

export interface WordTiming {
  startMs: number;
  endMs: number;
  text?: string;
}

/** What one synthesis call returns. Engines without timings give empty `phonemes`/`words`. */
export interface Utterance {
  /** s16 mono. */
  pcm: Int16Array;
  sampleRate: number;
  /** Increasing start times; gaps between phonemes are pauses. */
  phonemes: PhonemeTiming[];
  words: WordTiming[];
  durationMs: number;
}

export interface SynthesizeOptions {
  /** A row id of `voices()` (the engine may also accept its own native names). */
  voice?: string;
  /** Speed multiplier, 1 = the engine's normal speed. */
  rate?: number;
  /** Pitch multiplier, 1 = the voice's normal pitch. */
  pitch?: number;
}

/** A row of the voice catalogue as the engine knows it (the catalogue adds `preview`, `recommended`). */
export interface VoiceRow {
  provider: string;
  id: string;
  name: string;
  /** A language tag such as "en-us" (not a country code). */
  language: string;
  /** Whatever lowercase string the provider uses. */
  gender: string;
  description: string;
  /** Every language tag the voice speaks, when the provider says; `language` otherwise. */
  languages?: string[];
  /** The provider's own fields. */
  [field: string]: unknown;
}

export interface VoiceEngine {
  /** Provider name as it appears on voice rows ("espeak", ...). */
  readonly id: string;
  /** False while the engine is still starting. */
  readonly ready: boolean;
  /** Failures are `UpstreamError` (shared/errors/api-error.ts); a provider's failures are `VoiceProviderError`. */
  synthesize(text: string, options?: SynthesizeOptions): Promise<Utterance>;
  /** Await it: local engines answer at once, hosted ones fetch. */
  voices(): VoiceRow[] | Promise<VoiceRow[]>;
  /** The voice a call that names none gets, when the engine knows it without asking its server. */
  readonly defaultVoiceId?: string;
  /** What the catalogue and the clone routes say about the engine; absent = the embedded engine's. */
  readonly info?: VoiceEngineInfo;
  /**
   * The same speech as `synthesize`, as it arrives (first audio as soon as the provider sends it).
   * Chunks are s16 mono at one rate; timings, when the provider gives them, in ms from the first
   * sample of the whole utterance. Aborting `signal` stops the request.
   */
  stream?(text: string, options?: SynthesizeOptions & { signal?: AbortSignal }): AsyncIterable<UtteranceChunk>;
  /** Opens a connection to the engine's server ahead of the first call (never rejects). */
  warm?(): Promise<void>;
}

export interface UtteranceChunk {
  pcm: Int16Array;
  sampleRate: number;
  phonemes?: PhonemeTiming[];
  words?: WordTiming[];
}

export interface VoiceEngineInfo {
  /** Shown as the catalogue group's `label`. */
  label: string;
  /** Runs on the box or the operator's own server (no third party hears the text). */
  local: boolean;
  /** Speaks on the caller's own provider account (a key saved on the portal) when one is given. */
  byo: boolean;
  /** `POST /api/voice/upload` can make a voice from a reference clip. */
  clone: boolean;
  /** `POST /api/voice/prepare` can warm a voice. */
  prepare: boolean;
}

/** The catalogue group states that say a provider could not be used (spec "Voice catalogue"). */
export type VoiceFailure = "refused" | "unreachable" | "timed_out" | "key_problem";

/**
 * A provider failed: `failure` is the catalogue state it maps to (`key_problem` for a rejected or
 * exhausted key, `timed_out`, `unreachable` when no connection was made, `refused` for any other
 * refusal or a broken answer); `status` is the provider's HTTP status (0 when none).
 */
export class VoiceProviderError extends UpstreamError {
  constructor(
    message: string,
    status: number,
    retryable: boolean,
    readonly failure: VoiceFailure,
  ) {
    super(message, status, retryable);
    this.name = "VoiceProviderError";
  }
}

/** How a client of a provider's server is made (the box's env or a caller's saved key). */
export interface ProviderClientOptions {
  /** e.g. https://api.elevenlabs.io (no trailing slash needed). */
  baseUrl: string;
  apiKey?: string;
  /** Per request (default 10 s; a stream's first byte must come within it). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}
