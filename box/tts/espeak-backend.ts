// The two ways of reaching espeak-ng (native library through koffi, WASM build from npm) behind
// one small surface, so EspeakEngine does not care which one loaded.
import type { EspeakRawEvent } from "./espeak-events.ts";

export interface EspeakRawVoice {
  name: string;
  /** espeak's identifier, e.g. "gmw/en-US" (what espeak_SetVoiceByName accepts). */
  identifier: string;
  /** speak_lib.h: 0 none, 1 male, 2 female. */
  gender: number;
  /** Lower priority number = better match for that language. */
  languages: { priority: number; name: string }[];
}

export type EspeakChunkSink = (pcm: Int16Array, events: EspeakRawEvent[]) => void;

export interface EspeakBackend {
  readonly kind: "native" | "wasm";
  readonly sampleRate: number;
  readonly version: string;
  listVoices(): EspeakRawVoice[];
  /** False when espeak does not know the name. */
  setVoice(identifier: string): boolean;
  /** Words per minute (espeak: 80..450, default 175). */
  setRate(wpm: number): void;
  /** 0..100, default 50. */
  setPitch(pitch: number): void;
  /** Synchronous: every chunk reaches `sink` before it returns. Throws on failure. */
  synth(text: string, endPause: boolean, sink: EspeakChunkSink): void;
}

/** speak_lib.h defaults. */
export const ESPEAK_DEFAULT_WPM = 175;
export const ESPEAK_DEFAULT_PITCH = 50;
