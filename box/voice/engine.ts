// Implements: the voice engine seam of the media path (DESIGN.md "The media path", "Embedded
// defaults": voice) and the voice row of "Voice catalogue (`GET /api/voices`)".
// The embedded espeak-ng engine implements it now; self-hosted and hosted engines later.

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
  /** Failures are `UpstreamError` (shared/errors/api-error.ts). */
  synthesize(text: string, options?: SynthesizeOptions): Promise<Utterance>;
  /** Await it: local engines answer at once, hosted ones fetch. */
  voices(): VoiceRow[] | Promise<VoiceRow[]>;
}
