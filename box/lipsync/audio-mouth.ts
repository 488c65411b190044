// Implements: docs/architecture.md "Mouth shapes": mouth shapes from the audio itself (energy and spectral
// shape per 40 ms frame), for voices that give no timings and for uploaded audio.
// Loudness opens the jaw; where the energy sits in the spectrum says wide (high: /i/, /s/) or
// round (low: /u/, /o/). Below the noise gate the mouth is closed.
import type { MouthParams } from "../render/frame-params.ts";
import { slewLimitDown } from "./slew.ts";
import { nextPow2, powerSpectrum } from "./spectrum.ts";

export interface AudioMouthOptions {
  /** Frame RMS below this (dBFS) is silence: mouth closed. */
  gateDb?: number;
  /** Frame RMS at or above this (dBFS) opens the mouth fully (for an open vowel). */
  fullDb?: number;
  /** Largest change of any parameter per second. */
  maxSpeedPerSecond?: number;
}

const DEFAULTS: Required<AudioMouthOptions> = {
  gateDb: -45,
  fullDb: -16,
  maxSpeedPerSecond: 7.5,
};

const clamp01 = (v: number) => (v < 0 ? 0 : Math.min(v, 1));

/** dBFS of the RMS of pcm[from, to). */
function rmsDb(pcm: Int16Array, from: number, to: number): number {
  let sum = 0;
  let n = 0;
  for (let i = Math.max(0, from); i < Math.min(pcm.length, to); i++, n++) sum += (pcm[i] / 32768) ** 2;
  return n === 0 || sum === 0 ? -Infinity : 10 * Math.log10(sum / n);
}

interface SpectralShape {
  /** Jaw factor from the first formant's region: ~0.35 for /i u m/, 1 for /a/. */
  jaw: number;
  wide: number;
  round: number;
}

/**
 * Mouth shape from where the energy of a window centred on the frame sits. Bands: F1 region
 * 200-1000 Hz, back-vowel F2 1-1.8 kHz, front-vowel F2/F3 and fricatives 1.8-8 kHz. Front
 * vowels and /s/ put energy high (wide); /o u/ keep it low with little in between (round);
 * /a/ fills the middle band and pushes F1 up (open jaw).
 */
function spectralShape(pcm: Int16Array, from: number, to: number, sampleRate: number): SpectralShape {
  const len = to - from;
  const start = from - Math.floor(len / 2); // twice the frame, for frequency resolution
  const win = new Float64Array(len * 2);
  for (let i = 0; i < win.length; i++) {
    const j = start + i;
    win[i] = j >= 0 && j < pcm.length ? pcm[j] / 32768 : 0;
  }
  const size = nextPow2(win.length);
  const power = powerSpectrum(win, size);
  const hzPerBin = sampleRate / size;
  let low = 0;
  let mid = 0;
  let high = 0;
  let f1 = 0;
  const top = Math.min(power.length - 1, Math.floor(8000 / hzPerBin));
  for (let k = Math.ceil(200 / hzPerBin); k <= top; k++) {
    const hz = k * hzPerBin;
    if (hz < 1000) {
      low += power[k];
      f1 += power[k] * hz;
    } else if (hz < 1800) mid += power[k];
    else high += power[k];
  }
  const total = low + mid + high;
  if (total <= 0) return { jaw: 0, wide: 0, round: 0 };
  const f1Hz = low > 0 ? f1 / low : 0;
  const highShare = high / total;
  const midShare = mid / total;
  return {
    jaw: 0.35 + 0.65 * clamp01((f1Hz - 300) / 400),
    wide: clamp01((highShare - 0.12) / 0.2) * (1 - clamp01(midShare / 0.25)),
    round: (1 - clamp01((highShare - 0.08) / 0.15)) * clamp01((0.3 - midShare) / 0.2) * clamp01((700 - f1Hz) / 200),
  };
}

/** 1-2-1 smoothing across frames. */
function smooth(y: Float64Array): Float64Array {
  const out = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    const a = y[Math.max(0, i - 1)];
    const b = y[Math.min(y.length - 1, i + 1)];
    out[i] = 0.25 * a + 0.5 * y[i] + 0.25 * b;
  }
  return out;
}

/** One MouthParams per video frame, ceil(samples × fps / rate) of them; pure. */
export function mouthTrackFromAudio(pcm: Int16Array, sampleRate: number, fps = 25, options: AudioMouthOptions = {}): MouthParams[] {
  const o = { ...DEFAULTS, ...options };
  const n = Math.ceil((pcm.length * fps) / sampleRate);
  const open = new Float64Array(n);
  const wide = new Float64Array(n);
  const round = new Float64Array(n);
  const gated = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const from = Math.round((i * sampleRate) / fps);
    const to = Math.round(((i + 1) * sampleRate) / fps);
    const db = rmsDb(pcm, from, to);
    if (db < o.gateDb) {
      gated[i] = 1;
      continue;
    }
    const loud = clamp01((db - o.gateDb) / (o.fullDb - o.gateDb));
    const shape = spectralShape(pcm, from, to, sampleRate);
    open[i] = loud * shape.jaw;
    // Shape follows voicing: a faint frame gets a faint shape.
    const presence = clamp01(loud * 2);
    wide[i] = presence * shape.wide;
    round[i] = presence * shape.round;
  }
  const step = o.maxSpeedPerSecond / fps;
  const channels = [smooth(open), smooth(wide), smooth(round)];
  for (const y of channels) {
    for (let i = 0; i < n; i++) if (gated[i]) y[i] = 0; // the noise gate wins over smoothing
    slewLimitDown(y, step);
  }
  const track: MouthParams[] = [];
  for (let i = 0; i < n; i++) {
    track.push({ open: clamp01(channels[0][i]), wide: clamp01(channels[1][i]), round: clamp01(channels[2][i]) });
  }
  return track;
}
