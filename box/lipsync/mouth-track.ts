// Implements: docs/architecture.md "Mouth shapes": the mouth-shape track (one MouthParams per video frame)
// from a voice engine's phoneme timings. Coarticulation after Cohen & Massaro: every segment
// pulls the mouth toward its target with a dominance that starts before the sound
// (anticipation) and fades after it; lips that must close (p b m) and pauses are then imposed
// as ceilings, and a slew limit keeps frame-to-frame motion within what a jaw can do.
import type { MouthParams } from "../render/frame-params.ts";
import { slewLimitDown } from "./slew.ts";
import type { PhonemeTiming } from "../tts/engine.ts";
import { VISEME_SHAPES, visemesOf, type Viseme } from "./visemes.ts";

export interface MouthTrackOptions {
  /** Largest change of any parameter per second (full range in ~130 ms at 7.5). */
  maxSpeedPerSecond?: number;
  /** Sub-samples averaged per frame (anti-aliasing of short sounds). */
  samplesPerFrame?: number;
  /** Pauses shorter than this barely close the mouth (ms). */
  shortPauseMs?: number;
  /** A pause is closed from this long after its start ... */
  pauseCloseAfterMs?: number;
  /** ... until this long before the next sound (anticipation). */
  pauseOpenBeforeMs?: number;
  /** Lip opening allowed during p, b, m. */
  bilabialOpen?: number;
}

const DEFAULTS: Required<MouthTrackOptions> = {
  maxSpeedPerSecond: 7.5,
  samplesPerFrame: 8,
  shortPauseMs: 60,
  pauseCloseAfterMs: 40,
  pauseOpenBeforeMs: 80,
  bilabialOpen: 0.03,
};

export const REST: MouthParams = { open: 0, wide: 0, round: 0 };
const CHANNELS = ["open", "wide", "round"] as const;

interface Segment {
  start: number;
  end: number;
  viseme: Viseme;
  dominance: number;
}

/** Frames covering `durationMs` at `fps`: ceil(duration × fps / 1000). */
export function frameCount(durationMs: number, fps: number): number {
  return Math.max(0, Math.ceil((durationMs * fps) / 1000));
}

function segmentsOf(phonemes: readonly PhonemeTiming[], o: Required<MouthTrackOptions>): Segment[] {
  const sorted = phonemes.filter((p) => p.endMs > p.startMs).sort((a, b) => a.startMs - b.startMs);
  const segs: Segment[] = [];
  const pause = (start: number, end: number) => {
    const shortPause = end - start < o.shortPauseMs && Number.isFinite(start) && Number.isFinite(end);
    segs.push({ start, end, viseme: "sil", dominance: VISEME_SHAPES.sil.dominance * (shortPause ? 0.3 : 1) });
  };
  let cursor = -Infinity;
  for (const p of sorted) {
    const start = Math.max(p.startMs, cursor); // overlapping timings: the later sound waits
    if (start >= p.endMs) continue;
    if (start > cursor) pause(cursor, start);
    const parts = visemesOf(p.phoneme);
    // A diphthong glides: 55% on its first shape, the rest on its second.
    const cut = parts.length === 2 ? start + (p.endMs - start) * 0.55 : p.endMs;
    segs.push({ start, end: cut, viseme: parts[0], dominance: VISEME_SHAPES[parts[0]].dominance });
    if (parts.length === 2) segs.push({ start: cut, end: p.endMs, viseme: parts[1], dominance: VISEME_SHAPES[parts[1]].dominance });
    cursor = p.endMs;
  }
  pause(cursor, Infinity);
  return segs;
}

function dominanceAt(s: Segment, t: number): number {
  const sh = VISEME_SHAPES[s.viseme];
  if (t < s.start) return s.dominance * 2 ** (-(s.start - t) / sh.leadMs);
  if (t > s.end) return s.dominance * 2 ** (-(t - s.end) / sh.lagMs);
  return s.dominance;
}

/** Blended target at time t (ms). */
function blendAt(segs: readonly Segment[], t: number): MouthParams {
  let w = 0;
  let open = 0;
  let wide = 0;
  let round = 0;
  for (const s of segs) {
    if (t < s.start - 400 || t > s.end + 400) continue; // negligible beyond ~8 half-lives
    const d = dominanceAt(s, t);
    const target = VISEME_SHAPES[s.viseme].target;
    w += d;
    open += d * target.open;
    wide += d * target.wide;
    round += d * target.round;
  }
  return w > 0 ? { open: open / w, wide: wide / w, round: round / w } : { ...REST };
}

/**
 * One MouthParams per video frame; frame i shows [i/fps, (i+1)/fps) of the audio.
 * The last frame is at rest, p/b/m close the lips, pauses close the mouth. The first frame is at
 * rest unless sound starts in its first half: then it is one frame's motion from rest, so the
 * mouth moves with the first audio rather than a frame after it.
 */
export function mouthTrackFromPhonemes(
  phonemes: readonly PhonemeTiming[],
  durationMs: number,
  fps = 25,
  options: MouthTrackOptions = {},
): MouthParams[] {
  const o = { ...DEFAULTS, ...options };
  const n = frameCount(durationMs, fps);
  if (n === 0) return [];
  const frameMs = 1000 / fps;
  const segs = segmentsOf(phonemes, o);

  const curves = { open: new Float64Array(n), wide: new Float64Array(n), round: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < o.samplesPerFrame; j++) {
      const v = blendAt(segs, (i + (j + 0.5) / o.samplesPerFrame) * frameMs);
      for (const c of CHANNELS) curves[c][i] += v[c] / o.samplesPerFrame;
    }
  }

  // Ceilings: rest at both ends and inside pauses, closed lips on bilabials.
  const center = (i: number) => (i + 0.5) * frameMs;
  const ceil = (i: number, channels: readonly (typeof CHANNELS)[number][], level: number) => {
    for (const c of channels) curves[c][i] = Math.min(curves[c][i], level);
  };
  const step = o.maxSpeedPerSecond / fps;
  const firstSound = segs.find((s) => s.viseme !== "sil")?.start ?? Infinity;
  ceil(0, CHANNELS, firstSound < frameMs / 2 ? step : 0);
  ceil(n - 1, CHANNELS, 0);
  for (const s of segs) {
    if (s.viseme === "sil") {
      if (s.end - s.start < o.shortPauseMs) continue;
      const from = s.start + o.pauseCloseAfterMs;
      const to = s.end - o.pauseOpenBeforeMs;
      for (let i = 0; i < n; i++) if (center(i) >= from && center(i) <= to) ceil(i, CHANNELS, 0);
    } else if (s.viseme === "PP") {
      let hit = false;
      for (let i = 0; i < n; i++) {
        if (center(i) >= s.start && center(i) <= s.end) {
          ceil(i, ["open"], o.bilabialOpen);
          hit = true;
        }
      }
      // Shorter than a frame: close the frame that holds its middle.
      const mid = Math.min(n - 1, Math.floor((s.start + s.end) / 2 / frameMs));
      if (!hit && mid >= 0) ceil(mid, ["open"], o.bilabialOpen);
    }
  }

  for (const c of CHANNELS) slewLimitDown(curves[c], step);

  const clamp01 = (v: number) => (v < 0 ? 0 : Math.min(v, 1));
  const track: MouthParams[] = [];
  for (let i = 0; i < n; i++) {
    track.push({ open: clamp01(curves.open[i]), wide: clamp01(curves.wide[i]), round: clamp01(curves.round[i]) });
  }
  return track;
}
