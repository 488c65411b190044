// Implements: Cartesia's wire facts the engine relies on (docs/providers.md 2.1 version and
// auth headers, 2.2 request body, 2.4 SSE events, 2.6 voice objects, 2.9 languages per model).
// Pure: no I/O here, so the fake and the engine agree on one description of the protocol.

/** 2026-03-01 is the first version whose errors are JSON (2.1, 2.8); older text errors are parsed too. */
export const CARTESIA_VERSION = "2026-03-01";
export const CARTESIA_DEFAULT_MODEL = "sonic-3";
export const CARTESIA_DEFAULT_BASE_URL = "https://api.cartesia.ai";
/** 24 kHz halves exactly into the box's 48 kHz. */
export const CARTESIA_DEFAULT_SAMPLE_RATE = 24000;
export const CARTESIA_SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;
export type CartesiaSampleRate = (typeof CARTESIA_SAMPLE_RATES)[number];

/** Cartesia ids are UUIDs; anything outside this never reaches a URL or a body. */
export const VOICE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

// 2.9: what each model family speaks (every voice speaks every language of the model).
const SONIC_3_LANGUAGES = [
  "en",
  "de",
  "es",
  "fr",
  "ja",
  "pt",
  "zh",
  "hi",
  "ko",
  "it",
  "nl",
  "pl",
  "ru",
  "sv",
  "tr",
  "tl",
  "bg",
  "ro",
  "ar",
  "cs",
  "el",
  "fi",
  "hr",
  "ms",
  "sk",
  "da",
  "ta",
  "uk",
  "hu",
  "no",
  "vi",
  "bn",
  "th",
  "he",
  "ka",
  "id",
  "te",
  "gu",
  "kn",
  "ml",
  "mr",
  "pa",
];
const SONIC_2_LANGUAGES = ["en", "fr", "de", "es", "pt", "zh", "ja", "hi", "it", "ko", "nl", "pl", "ru", "sv", "tr"];

/** Languages the model speaks; empty for a model this table does not know. */
export function modelLanguages(model: string): string[] {
  const m = model.toLowerCase();
  if (m === "sonic-latest" || m.startsWith("sonic-3")) return SONIC_3_LANGUAGES.slice();
  if (/^sonic(-2|-turbo)?(-\d{4}-\d{2}-\d{2})?$/.test(m)) return SONIC_2_LANGUAGES.slice();
  return [];
}

/** generation_config (speed, volume, emotion) exists on sonic-3 models only (2.2). */
export function hasGenerationConfig(model: string): boolean {
  const m = model.toLowerCase();
  return m === "sonic-latest" || m.startsWith("sonic-3");
}

/** "pt_BR" → "pt-br": a tag, never a country code on its own. */
export function languageTag(raw: unknown): string {
  return typeof raw === "string" ? raw.trim().toLowerCase().replace(/_/g, "-") : "";
}

export interface SseRequestInput {
  model: string;
  transcript: string;
  voiceId: string;
  sampleRate: number;
  language?: string;
  /** Speed multiplier; 1 (or absent) sends nothing. */
  rate?: number;
}

/** The body of `POST /tts/sse` (2.2 + 2.4): raw s16le PCM with word timestamps. */
export function sseRequestBody(input: SseRequestInput): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model_id: input.model,
    transcript: input.transcript,
    voice: { mode: "id", id: input.voiceId },
    output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: input.sampleRate },
    add_timestamps: true,
  };
  if (input.language) body.language = input.language.toLowerCase().split(/[-_]/)[0];
  const rate = input.rate;
  if (rate !== undefined && Number.isFinite(rate) && rate > 0 && rate !== 1) {
    if (hasGenerationConfig(input.model)) body.generation_config = { speed: Math.max(0.6, Math.min(1.5, rate)) };
    // Older models only know the deprecated three-step speed.
    else if (rate < 0.85 || rate > 1.15) body.speed = rate < 1 ? "slow" : "fast";
  }
  return body;
}

/** One decoded SSE event (2.4); `type` decides, the SSE `event:` name is ignored as the SDK does. */
export type CartesiaEvent =
  | { type: "chunk"; data: string }
  | { type: "timestamps"; word_timestamps: { words: unknown; start: unknown; end: unknown } }
  | { type: "phoneme_timestamps" }
  | { type: "done" }
  | { type: "error"; status_code?: unknown; title?: unknown; message?: unknown; error?: unknown; error_code?: unknown };

/** Parses one `data:` payload; null when it is not a Cartesia event at all. */
export function parseEvent(data: string): CartesiaEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) return null;
  const ev = json as Record<string, unknown>;
  switch (ev.type) {
    case "chunk":
      return typeof ev.data === "string" ? (ev as CartesiaEvent) : null;
    case "timestamps":
      return ev.word_timestamps && typeof ev.word_timestamps === "object" ? (ev as CartesiaEvent) : null;
    case "phoneme_timestamps":
    case "done":
    case "error":
      return ev as CartesiaEvent;
    default:
      return null;
  }
}

export interface TimedWord {
  text: string;
  startMs: number;
  endMs: number;
}

/** Word timestamps are seconds from the first sample of the request's audio (2.5); entries that are not numbers are skipped. */
export function wordsOf(ts: { words: unknown; start: unknown; end: unknown }): TimedWord[] {
  const { words, start, end } = ts;
  if (!Array.isArray(words) || !Array.isArray(start) || !Array.isArray(end)) return [];
  const out: TimedWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const s = start[i];
    const e = end[i];
    if (typeof words[i] !== "string" || typeof s !== "number" || typeof e !== "number" || !Number.isFinite(s) || !Number.isFinite(e))
      continue;
    out.push({ text: words[i], startMs: Math.round(s * 1000), endMs: Math.round(Math.max(s, e) * 1000) });
  }
  return out;
}

/**
 * Turns base64 s16le chunks into samples. A chunk may end in the middle of a sample, so the odd
 * byte is kept for the next one.
 */
export class PcmAssembler {
  private carry: number | null = null;

  /** Null when `b64` is not base64. */
  push(b64: string): Int16Array | null {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) return null;
    let bytes: Uint8Array = Buffer.from(b64, "base64");
    if (this.carry !== null) {
      const joined = new Uint8Array(bytes.length + 1);
      joined[0] = this.carry;
      joined.set(bytes, 1);
      bytes = joined;
      this.carry = null;
    }
    if (bytes.length % 2 === 1) {
      this.carry = bytes[bytes.length - 1];
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    const pcm = new Int16Array(bytes.length / 2);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < pcm.length; i++) pcm[i] = view.getInt16(i * 2, true);
    return pcm;
  }
}
