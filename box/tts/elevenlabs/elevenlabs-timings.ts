// Implements: one line of ElevenLabs' `/stream/with-timestamps` answer (docs/providers.md 1.2) read
// into PCM and word timings. Pure: no I/O, so it is tested with hand-made lines.
import type { WordTiming } from "../engine.ts";
import { brokenAnswer } from "./elevenlabs-errors.ts";

/** Snake case, seconds from the start of the request's audio. */
export interface CharacterAlignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

export interface TimestampLine {
  audio: Uint8Array;
  /** `alignment` (the input's own characters), else `normalized_alignment`; null when neither. */
  alignment: CharacterAlignment | null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Throws VoiceProviderError (refused) when the line is not what the protocol says. */
export function parseTimestampLine(line: string): TimestampLine {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw brokenAnswer("speech", "a line of the stream is not JSON");
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw brokenAnswer("speech", "a line of the stream is not a JSON object");
  const o = json as { audio_base64?: unknown; alignment?: unknown; normalized_alignment?: unknown };
  if (typeof o.audio_base64 !== "string") throw brokenAnswer("speech", "a line of the stream has no audio_base64");
  if (!BASE64.test(o.audio_base64)) throw brokenAnswer("speech", "audio_base64 is not base64");
  const alignment = readAlignment(o.alignment) ?? readAlignment(o.normalized_alignment);
  return { audio: Buffer.from(o.audio_base64, "base64"), alignment };
}

function readAlignment(raw: unknown): CharacterAlignment | null {
  if (raw === null || raw === undefined) return null;
  const a = raw as Partial<CharacterAlignment>;
  const chars = a.characters;
  const starts = a.character_start_times_seconds;
  const ends = a.character_end_times_seconds;
  const ok =
    Array.isArray(chars) &&
    Array.isArray(starts) &&
    Array.isArray(ends) &&
    starts.length === chars.length &&
    ends.length === chars.length &&
    chars.every((c) => typeof c === "string") &&
    starts.every(Number.isFinite) &&
    ends.every(Number.isFinite);
  if (!ok) throw brokenAnswer("speech", "an alignment is not three arrays of equal length");
  return a as CharacterAlignment;
}

/** s16le bytes to samples; a sample split across two lines is carried over. */
export class PcmDecoder {
  private carry: number | null = null;
  samples = 0;

  push(bytes: Uint8Array): Int16Array {
    const total = bytes.length + (this.carry === null ? 0 : 1);
    const out = new Int16Array(total >> 1);
    let i = 0;
    let k = 0;
    if (this.carry !== null && bytes.length > 0) {
      out[k++] = ((this.carry | (bytes[0] << 8)) << 16) >> 16;
      this.carry = null;
      i = 1;
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (; i + 1 < bytes.length; i += 2) out[k++] = view.getInt16(i, true);
    if (i < bytes.length) this.carry = bytes[i];
    this.samples += out.length;
    return out;
  }
}

// Times that fall this far behind the latest end mean the provider restarted them at a chunk.
const RESTART_SLACK_MS = 50;

/**
 * Words (runs of non-space characters) from character alignments as they arrive: a word is
 * given once the space after it (or `finish()`) shows it is complete. Times are ms from the first
 * sample. HTTP alignment times are absolute within the request (docs/providers.md 1.2); should a line's
 * times restart below what came before, they are taken as per-chunk and shifted by the latest end.
 */
export class WordTimer {
  private word: WordTiming | null = null;
  private latestEndMs = 0;

  push(a: CharacterAlignment): WordTiming[] {
    const done: WordTiming[] = [];
    const n = a.characters.length;
    if (n === 0) return done;
    const firstMs = a.character_start_times_seconds[0] * 1000;
    const offset = this.latestEndMs > 0 && firstMs + RESTART_SLACK_MS < this.latestEndMs ? this.latestEndMs : 0;
    for (let i = 0; i < n; i++) {
      const ch = a.characters[i];
      if (ch === "") continue;
      const startMs = Math.round(a.character_start_times_seconds[i] * 1000 + offset);
      const endMs = Math.round(a.character_end_times_seconds[i] * 1000 + offset);
      this.latestEndMs = Math.max(this.latestEndMs, endMs);
      if (ch.trim() === "") {
        if (this.word) done.push(this.word);
        this.word = null;
      } else if (this.word) {
        this.word.text += ch;
        this.word.endMs = Math.max(this.word.endMs, endMs);
      } else {
        this.word = { text: ch, startMs, endMs };
      }
    }
    return done;
  }

  /** The last word, once the stream has ended. */
  finish(): WordTiming[] {
    const last = this.word;
    this.word = null;
    return last ? [last] : [];
  }

  /** The latest character end seen, in ms. */
  get endMs(): number {
    return this.latestEndMs;
  }
}
