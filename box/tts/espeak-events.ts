// Implements: docs/architecture.md "Text to speech with timings": turns espeak-ng's synthesis
// callbacks (PCM chunks + events with `audio_position` ms) into an Utterance. Shared by the
// native (koffi) and WASM backends, which report the same events.
import type { PhonemeTiming, Utterance, WordTiming } from "./engine.ts";

export type EspeakEventKind = "word" | "sentence" | "phoneme" | "end" | "other";

/** One espeak event, backend-neutral. */
export interface EspeakRawEvent {
  kind: EspeakEventKind;
  /** `audio_position`: ms from the start of this synthesis call. */
  audioMs: number;
  /** `text_position`: 1-based character index into the text (word events). */
  textPosition: number;
  /** Characters of the word (word events). */
  length: number;
  /** Phoneme name (IPA); empty for a pause. */
  name?: string;
}

/** The event type numbers of speak_lib.h (espeak_EVENT_TYPE). */
export function eventKind(type: number): EspeakEventKind {
  switch (type) {
    case 1:
      return "word";
    case 2:
      return "sentence";
    case 5:
      return "end";
    case 7:
      return "phoneme";
    default:
      return "other";
  }
}

// Stress, syllable and linking marks say nothing about mouth shape (the WASM build emits them).
const MARKS = /[ˈˌ.'%=\-_|‿]/g;
// "(en)", "(ja)": espeak switching language inside a text (e.g. reading kanji in English).
const LANGUAGE_SWITCH = /^\(.*\)$/;

export function cleanPhoneme(name: string): string {
  const cleaned = name.replace(/\0.*$/s, "").replace(MARKS, "").trim();
  return /\p{L}/u.test(cleaned) ? cleaned : ""; // no letter left: a pause
}

const isLanguageSwitch = (e: EspeakRawEvent) => e.kind === "phoneme" && LANGUAGE_SWITCH.test((e.name ?? "").replace(/\0.*$/s, "").trim());

export function concatPcm(chunks: readonly Int16Array[]): Int16Array {
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Int16Array(n);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

export function buildUtterance(
  text: string,
  chunks: readonly Int16Array[],
  events: readonly EspeakRawEvent[],
  sampleRate: number,
): Utterance {
  const pcm = concatPcm(chunks);
  const durationMs = (pcm.length / sampleRate) * 1000;
  const clampMs = (ms: number) => Math.max(0, Math.min(durationMs, ms));

  // A phoneme runs until the next phoneme event (a pause or a sound) or the end of the audio.
  const marks = events.filter((e) => (e.kind === "phoneme" && !isLanguageSwitch(e)) || e.kind === "end");
  const phonemes: PhonemeTiming[] = [];
  for (let i = 0; i < marks.length; i++) {
    const e = marks[i];
    if (e.kind !== "phoneme") continue;
    const phoneme = cleanPhoneme(e.name ?? "");
    if (!phoneme) continue; // a pause: the gap it leaves is the silence
    const startMs = clampMs(e.audioMs);
    const next = marks.slice(i + 1).find((m) => m.audioMs > e.audioMs);
    const endMs = clampMs(next ? next.audioMs : durationMs);
    if (endMs <= startMs) continue;
    const prev = phonemes[phonemes.length - 1];
    if (prev && prev.endMs > startMs) prev.endMs = startMs;
    phonemes.push({ phoneme, startMs, endMs });
  }

  const chars = Array.from(text); // espeak counts characters, not UTF-16 units
  const wordEvents = events.filter((e) => e.kind === "word");
  const words: WordTiming[] = [];
  for (let i = 0; i < wordEvents.length; i++) {
    const e = wordEvents[i];
    const startMs = clampMs(e.audioMs);
    const nextStart = i + 1 < wordEvents.length ? clampMs(wordEvents[i + 1].audioMs) : durationMs;
    // The word ends where its last sound ends, not where the following pause ends.
    const inside = phonemes.filter((p) => p.startMs >= startMs && p.startMs < nextStart);
    const wordText = chars
      .slice(e.textPosition - 1, e.textPosition - 1 + e.length)
      .join("")
      .trim();
    if (inside.length === 0 && !wordText) continue;
    const endMs = inside.length > 0 ? inside[inside.length - 1].endMs : nextStart;
    const firstStart = inside.length > 0 ? inside[0].startMs : startMs;
    words.push(wordText ? { startMs: firstStart, endMs, text: wordText } : { startMs: firstStart, endMs });
  }

  return { pcm, sampleRate, phonemes, words, durationMs };
}
