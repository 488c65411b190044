// Implements: the audio leg of the media path (docs/architecture.md "Voice engines"): voice engines give 22050 Hz (espeak) or
// other rates; the encoder takes 48 kHz (Opus) and speech recognition 16 kHz, s16 mono.
// Band-limited polyphase resampling: a Kaiser-windowed sinc, one filter per output phase.

export interface ResampleOptions {
  /** Zero crossings of the sinc on each side; more = sharper cut-off, more work. */
  zeroCrossings?: number;
  /** Passband edge as a fraction of the lower Nyquist frequency. */
  rolloff?: number;
  /** Kaiser window beta (~8: about 80 dB stop-band). */
  beta?: number;
}

interface FilterBank {
  /** Output phases (out/gcd). */
  phases: number;
  /** Input step per output sample, in phase units (in/gcd). */
  step: number;
  taps: number;
  /** First input sample under the filter, relative to floor(position). */
  offset: number;
  coeffs: Float32Array; // phases × taps
}

const banks = new Map<string, FilterBank>();
const RESAMPLE_DEFAULTS: Required<ResampleOptions> = { zeroCrossings: 16, rolloff: 0.92, beta: 8 };

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

function filterBank(from: number, to: number, o: Required<ResampleOptions>): FilterBank {
  const key = `${from}:${to}:${o.zeroCrossings}:${o.rolloff}:${o.beta}`;
  const cached = banks.get(key);
  if (cached) return cached;
  const g = gcd(from, to);
  const phases = to / g;
  const step = from / g;
  // Cut-off in cycles per input sample: below both Nyquist frequencies.
  const fc = 0.5 * Math.min(1, to / from) * o.rolloff;
  const half = Math.ceil(o.zeroCrossings / (2 * fc)); // input samples each side
  const taps = 2 * half;
  const offset = -half + 1;
  const coeffs = new Float32Array(phases * taps);
  const i0beta = besselI0(o.beta);
  for (let p = 0; p < phases; p++) {
    const frac = p / phases; // output position = floor + frac (input samples)
    let sum = 0;
    for (let k = 0; k < taps; k++) {
      const t = offset + k - frac; // input sample time relative to the output point
      const x = 2 * fc * t;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const r = t / half;
      const w = Math.abs(r) >= 1 ? 0 : besselI0(o.beta * Math.sqrt(1 - r * r)) / i0beta;
      const c = 2 * fc * sinc * w;
      coeffs[p * taps + k] = c;
      sum += c;
    }
    for (let k = 0; k < taps; k++) coeffs[p * taps + k] /= sum; // unity gain at DC for every phase
  }
  const bank = { phases, step, taps, offset, coeffs };
  banks.set(key, bank);
  return bank;
}

/** Output length: ceil(input × to / from). */
export function resampledLength(inputLength: number, from: number, to: number): number {
  return Math.ceil((inputLength * to) / from);
}

/** Pure: s16 mono at `from` Hz → s16 mono at `to` Hz. Samples beyond the ends count as silence. */
export function resample(pcm: Int16Array, from: number, to: number, options: ResampleOptions = {}): Int16Array {
  if (from === to && from > 0) return pcm.slice();
  return resampleSpan(pcm, from, to, 0, resampledLength(pcm.length, from, to), options);
}

/**
 * Output samples [start, end) of `resample(pcm, from, to)`: a stream resamples what has arrived
 * span by span, with the same samples as the whole (see `inputNeeded`).
 */
export function resampleSpan(
  pcm: Int16Array,
  from: number,
  to: number,
  start: number,
  end: number,
  options: ResampleOptions = {},
): Int16Array {
  if (!(from > 0 && to > 0 && Number.isInteger(from) && Number.isInteger(to))) {
    throw new RangeError(`sample rates must be positive integers (${from} → ${to})`);
  }
  if (from === to) return pcm.slice(start, end);
  const { phases, step, taps, offset, coeffs } = filterBank(from, to, { ...RESAMPLE_DEFAULTS, ...options });
  const out = new Int16Array(Math.max(0, end - start));
  const last = pcm.length - 1;
  for (let o = 0; o < out.length; o++) {
    const pos = (start + o) * step; // in phase units: input sample = pos / phases
    const base = Math.floor(pos / phases);
    const phase = pos - base * phases;
    const c0 = phase * taps;
    const first = base + offset;
    let acc = 0;
    if (first >= 0 && first + taps - 1 <= last) {
      for (let k = 0; k < taps; k++) acc += pcm[first + k] * coeffs[c0 + k];
    } else {
      for (let k = 0; k < taps; k++) {
        const j = first + k;
        if (j >= 0 && j <= last) acc += pcm[j] * coeffs[c0 + k];
      }
    }
    out[o] = acc > 32767 ? 32767 : acc < -32768 ? -32768 : Math.round(acc);
  }
  return out;
}

/** Input samples output sample `i` reads (its filter's last tap + 1): what must have arrived. */
export function inputNeeded(i: number, from: number, to: number, options: ResampleOptions = {}): number {
  if (from === to) return i + 1;
  const { phases, step, taps, offset } = filterBank(from, to, { ...RESAMPLE_DEFAULTS, ...options });
  return Math.floor((i * step) / phases) + offset + taps;
}

/** For the live stream (speech into Opus): 8 zero crossings, half the work of the default, ~70 dB. */
export const LIVE_RESAMPLE: ResampleOptions = { zeroCrossings: 8 };
export const to48k = (pcm: Int16Array, from: number): Int16Array => resample(pcm, from, 48_000, LIVE_RESAMPLE);
export const to16k = (pcm: Int16Array, from: number): Int16Array => resample(pcm, from, 16_000);

/** Output samples per slice of `to48kInSlices` (a quarter second: ~1 ms of work on one core). */
const SLICE = 12_000;
const yieldThread = () => new Promise<void>((r) => setImmediate(r));

/**
 * `to48k`, a slice at a time with the thread let go between slices, so a long clause never holds
 * up the media clock (the same samples as `to48k`).
 */
export async function to48kInSlices(pcm: Int16Array, from: number): Promise<Int16Array> {
  if (from === 48_000) return pcm;
  const out = new Int16Array(resampledLength(pcm.length, from, 48_000));
  for (let start = 0; start < out.length; start += SLICE) {
    if (start > 0) await yieldThread();
    out.set(resampleSpan(pcm, from, 48_000, start, Math.min(out.length, start + SLICE), LIVE_RESAMPLE), start);
  }
  return out;
}
