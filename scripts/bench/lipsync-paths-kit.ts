// Helpers of the lip-sync paths benchmark (scripts/bench/lipsync-paths.ts): phoneme timings
// rebuilt from a provider-style alignment (word intervals as Cartesia gives them, character
// intervals as ElevenLabs gives them) plus each word's phonemes without their timings, the
// per-frame comparison, and the strip chart.
import type { MouthParams } from "../../box/render/frame-params.ts";
import type { PhonemeTiming } from "../../box/tts/engine.ts";

/** A word's phonemes as a text-to-phonemes step would give them: names and relative durations. */
export interface WordPhonemes {
  names: string[];
  /** Duration of each phoneme when the word is said alone, summing to 1. */
  shares: number[];
}

export interface Interval {
  startMs: number;
  endMs: number;
}

/** The word's phonemes spread over its interval: evenly, or by the word-alone durations. */
export function stretchIntoWord(w: WordPhonemes, at: Interval, by: "even" | "durations"): PhonemeTiming[] {
  const m = w.names.length;
  const len = at.endMs - at.startMs;
  const out: PhonemeTiming[] = [];
  let cum = 0;
  for (let k = 0; k < m; k++) {
    const share = by === "even" ? 1 / m : w.shares[k];
    out.push({ phoneme: w.names[k], startMs: at.startMs + cum * len, endMs: at.startMs + (cum + share) * len });
    cum += share;
  }
  return out;
}

const VOWEL_LETTER = /[aeiouyàáâãäåæèéêëìíîïòóôõöøœùúûüý]/i;
const VOWEL_PHONEME = /^[aɑäæɐʌɒeɛəɜɘɚɝœɞiɪɨyʏɯɤoɔøɵuʊʉ]/;
const isVowelPhoneme = (p: string) => VOWEL_PHONEME.test(p.normalize("NFD"));

/**
 * Monotone split of `chars` into one contiguous non-empty group per phoneme, fewest letters of
 * the wrong kind (vowel letters with vowel phonemes, consonant letters with consonants): "through"
 * → th|r|ough for θ ɹ uː. Null when the word has fewer letters than phonemes.
 */
export function letterGroups(chars: readonly string[], phonemes: readonly string[]): number[] | null {
  const c = chars.length;
  const m = phonemes.length;
  if (m === 0 || c < m) return null;
  const wrong = (ci: number, pi: number) => (VOWEL_LETTER.test(chars[ci]) === isVowelPhoneme(phonemes[pi]) ? 0 : 1);
  // best[k][j]: least cost of the first k phonemes over the first j letters; cut[k][j] where group k-1 starts.
  const best = Array.from({ length: m + 1 }, () => new Array<number>(c + 1).fill(Infinity));
  const cut = Array.from({ length: m + 1 }, () => new Array<number>(c + 1).fill(0));
  best[0][0] = 0;
  for (let k = 1; k <= m; k++) {
    for (let j = k; j <= c - (m - k); j++) {
      let cost = 0;
      for (let s = j - 1; s >= k - 1; s--) {
        cost += wrong(s, k - 1);
        const total = best[k - 1][s] + cost;
        if (total < best[k][j]) (best[k][j] = total), (cut[k][j] = s);
      }
    }
  }
  const starts = new Array<number>(m);
  let j = c;
  for (let k = m; k >= 1; k--) (starts[k - 1] = cut[k][j]), (j = cut[k][j]);
  return starts; // group k is chars [starts[k], starts[k+1] or c)
}

/**
 * Character level: each letter gets an equal slice of the word interval (what ElevenLabs' per
 * character times would be without its aligner's precision), each phoneme the slices of its
 * letter group. Falls back to an even stretch when letters cannot carry the phonemes.
 */
export function spreadOverLetters(w: WordPhonemes, text: string, at: Interval): { phonemes: PhonemeTiming[]; fellBack: boolean } {
  const chars = Array.from(text).filter((ch) => /\p{L}/u.test(ch));
  const starts = letterGroups(chars, w.names);
  if (!starts) return { phonemes: stretchIntoWord(w, at, "even"), fellBack: true };
  const per = (at.endMs - at.startMs) / chars.length;
  const phonemes = w.names.map((phoneme, k) => ({
    phoneme,
    startMs: at.startMs + starts[k] * per,
    endMs: at.startMs + (k + 1 < starts.length ? starts[k + 1] : chars.length) * per,
  }));
  return { phonemes, fellBack: false };
}

export type Channel = "open" | "wide" | "round";

export function meanAbsError(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]);
  return s / a.length;
}

export function pearson(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) (ab += (a[i] - ma) * (b[i] - mb)), (aa += (a[i] - ma) ** 2), (bb += (b[i] - mb) ** 2);
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : NaN;
}

/** Track b shifted by `lag` frames (positive: b later), frames without a partner at rest. */
export function shifted(b: readonly MouthParams[], lag: number): MouthParams[] {
  return b.map((_, i) => b[i - lag] ?? { open: 0, wide: 0, round: 0 });
}

// --- strip chart -------------------------------------------------------------------------------

export type Rgb = [number, number, number];

export class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height * 4).fill(255);
  }
  dot(x: number, y: number, c: Rgb): void {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const o = (y * this.width + x) * 4;
    (this.pixels[o] = c[0]), (this.pixels[o + 1] = c[1]), (this.pixels[o + 2] = c[2]), (this.pixels[o + 3] = 255);
  }
  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) this.dot(x + i, y + j, c);
  }
  line(x0: number, y0: number, x1: number, y1: number, c: Rgb, thick = 1): void {
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    for (let s = 0; s <= steps; s++) {
      const x = x0 + ((x1 - x0) * s) / steps;
      const y = y0 + ((y1 - y0) * s) / steps;
      for (let t = 0; t < thick; t++) this.dot(x, y + t, c);
    }
  }
  /** A 0..1 curve, one value per frame, in the panel [top, top+h). */
  curve(values: readonly number[], pxPerFrame: number, top: number, h: number, c: Rgb, thick = 2): void {
    const y = (v: number) => top + h - 1 - v * (h - 4);
    for (let i = 1; i < values.length; i++) {
      this.line((i - 0.5) * pxPerFrame, y(values[i - 1]), (i + 0.5) * pxPerFrame, y(values[i]), c, thick);
    }
  }
}
