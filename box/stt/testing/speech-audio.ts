// Test audio: real speech from the project's espeak engine at 16 kHz, framed by silence, and
// where its energy says the voice starts and stops (the reference for VAD timings).
import { EspeakEngine } from "../../tts/espeak-engine.ts";
import { to16k } from "../../tts/resample.ts";

let engine: Promise<EspeakEngine> | null = null;

/** One sentence as 16 kHz mono s16. */
export async function speech16k(text: string): Promise<Int16Array> {
  engine ??= EspeakEngine.load();
  const utterance = await (await engine).synthesize(text);
  return to16k(utterance.pcm, utterance.sampleRate);
}

export const silence = (ms: number): Int16Array => new Int16Array((16 * ms) | 0);

export function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Deterministic white noise at `rms` (in s16 units). */
export function noise(ms: number, rms: number, seed = 1): Int16Array {
  const out = new Int16Array((16 * ms) | 0);
  let s = seed;
  for (let i = 0; i < out.length; i++) {
    s = (s * 1664525 + 1013904223) >>> 0;
    out[i] = Math.round(((s / 2 ** 32) * 2 - 1) * rms * Math.sqrt(3));
  }
  return out;
}

/** First and last 10 ms block whose RMS exceeds `threshold`, in ms (null when none). */
export function energySpan(pcm: Int16Array, threshold = 300): { startMs: number; endMs: number } | null {
  const block = 160;
  let first = -1;
  let last = -1;
  for (let b = 0; b * block < pcm.length; b++) {
    let sum = 0;
    const end = Math.min(pcm.length, (b + 1) * block);
    for (let i = b * block; i < end; i++) sum += pcm[i] * pcm[i];
    if (Math.sqrt(sum / (end - b * block)) > threshold) {
      if (first < 0) first = b;
      last = b;
    }
  }
  return first < 0 ? null : { startMs: first * 10, endMs: (last + 1) * 10 };
}

/** Cuts audio into socket-sized chunks of uneven lengths (as a browser might send). */
export function chunks(pcm: Int16Array, sizes = [320, 1024, 77, 2048, 512]): Int16Array[] {
  const out: Int16Array[] = [];
  for (let at = 0, i = 0; at < pcm.length; i++) {
    const n = sizes[i % sizes.length];
    out.push(pcm.slice(at, at + n));
    at += n;
  }
  return out;
}
