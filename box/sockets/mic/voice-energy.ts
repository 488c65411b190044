// Implements: the acoustic end of voice for the end-of-turn waits (issue 14 item 2; docs/api-notes.md "Voice
// socket", end of turn). Silero's probability decays for ~30-100 ms after the last voiced sample
// before it drops under the VAD's end threshold, so the VAD's `speech_end.atMs` lies late. A short
// ring of per-10 ms RMS energies of the microphone audio (audio time, the same clock as the VAD)
// moves that end back to where the energy fell. The rule is pure (`acousticVoiceEnd`); the ring
// only keeps the numbers.

/** One hop: 10 ms of 16 kHz audio. */
export const HOP_MS = 10;
const HOP_SAMPLES = 160;

/** The thresholds (docs/api-notes.md "Voice socket", end of turn). */
export const ENERGY_END = {
  /** A hop is voice at or above the utterance's recent peak minus this (weak fricatives lie ~20-28 dB under the vowels) ... */
  belowPeakDb: 35,
  /** ... and at or above the noise floor plus this. */
  aboveFloorDb: 12,
  /** The peak must stand this far above the floor, else energy cannot tell voice from noise: the VAD's end is kept. */
  minSnrDb: 24,
  /** The end moves back at most this far from the VAD's end. */
  maxBackMs: 150,
  /** The recent peak is the loudest hop in this much audio before the VAD's end. */
  peakWindowMs: 600,
  /** The noise floor is a low percentile (below) of this much audio. */
  floorWindowMs: 5000,
  floorPercentile: 0.05,
} as const;

const db = (x: number) => 10 ** (x / 20);

/** Noise floor of some hops: their low percentile (at least 1, so digital silence counts as 0 dB). */
export function noiseFloor(hops: ArrayLike<number>, percentile: number = ENERGY_END.floorPercentile): number {
  if (hops.length === 0) return 1;
  const sorted = Float64Array.from(hops).sort();
  return Math.max(1, sorted[Math.min(sorted.length - 1, Math.floor(percentile * sorted.length))]);
}

export interface VoiceEnd {
  /** Audio time (ms) the voice ended: never later than the VAD's end, never more than maxBackMs before it. */
  endMs: number;
  /** RMS at or above which a hop counts as voice; null when the energy could not tell (too noisy). */
  voicedRms: number | null;
}

/**
 * Where the voice ended, from the energies: the end of the last hop at or above the voiced level
 * (peak − belowPeakDb, floor + aboveFloorDb) that ends by the VAD's end. `hops[k]` is the RMS of the
 * hop starting at `firstHopMs + k·10`; `floorRms` the noise floor. A tail whose energy never falls
 * (noise as loud as the voice's tail) keeps the VAD's end; so does audio too noisy to tell.
 */
export function acousticVoiceEnd(hops: ArrayLike<number>, firstHopMs: number, vadEndMs: number, floorRms: number): VoiceEnd {
  const r = ENERGY_END;
  const floor = Math.max(1, floorRms);
  const hopAt = (ms: number) => Math.floor((ms - firstHopMs) / HOP_MS);
  // The hops that end by the VAD's end, and the recent peak among them.
  const last = Math.min(hops.length - 1, Math.ceil((vadEndMs - firstHopMs) / HOP_MS) - 1);
  let peak = 0;
  for (let k = Math.max(0, hopAt(vadEndMs - r.peakWindowMs)); k <= last; k++) peak = Math.max(peak, hops[k]);
  if (last < 0 || peak < floor * db(r.minSnrDb)) return { endMs: vadEndMs, voicedRms: null };
  const voicedRms = Math.max(peak / db(r.belowPeakDb), floor * db(r.aboveFloorDb));
  const earliest = vadEndMs - r.maxBackMs;
  for (let k = last; k >= 0; k--) {
    const hopEnd = firstHopMs + (k + 1) * HOP_MS;
    if (hopEnd <= earliest) break;
    if (hops[k] >= voicedRms) return { endMs: Math.min(vadEndMs, hopEnd), voicedRms };
  }
  return { endMs: earliest, voicedRms };
}

/** Whether every hop overlapping [fromMs, toMs) is under `voicedRms` (hops not kept count as loud). */
export function quietBetween(hops: ArrayLike<number>, firstHopMs: number, fromMs: number, toMs: number, voicedRms: number): boolean {
  const from = Math.floor((fromMs - firstHopMs) / HOP_MS);
  const to = Math.ceil((toMs - firstHopMs) / HOP_MS);
  if (from < 0 || to > hops.length) return false;
  for (let k = from; k < to; k++) if (hops[k] >= voicedRms) return false;
  return true;
}

/** The last few seconds of per-10 ms RMS energies of a 16 kHz stream, in audio time from its first sample. */
export class EnergyRing {
  private readonly ring: Float32Array;
  /** Completed hops so far. */
  private count = 0;
  private sum = 0;
  private filled = 0;

  constructor(readonly capacityMs: number = ENERGY_END.floorWindowMs) {
    this.ring = new Float32Array(Math.ceil(capacityMs / HOP_MS));
  }

  /** Audio time covered by completed hops. */
  get timeMs(): number {
    return this.count * HOP_MS;
  }

  push(pcm: Int16Array): void {
    for (let i = 0; i < pcm.length; i++) {
      this.sum += pcm[i] * pcm[i];
      if (++this.filled === HOP_SAMPLES) {
        this.ring[this.count++ % this.ring.length] = Math.sqrt(this.sum / HOP_SAMPLES);
        this.sum = 0;
        this.filled = 0;
      }
    }
  }

  /** The kept hops in order, and the audio time the first one starts. */
  hops(): { hops: Float32Array; firstHopMs: number } {
    const n = Math.min(this.count, this.ring.length);
    const out = new Float32Array(n);
    for (let k = 0; k < n; k++) out[k] = this.ring[(this.count - n + k) % this.ring.length];
    return { hops: out, firstHopMs: (this.count - n) * HOP_MS };
  }

  /** The acoustic end of a voice the VAD says ended at `vadEndMs`. */
  voiceEnd(vadEndMs: number): VoiceEnd {
    const { hops, firstHopMs } = this.hops();
    return acousticVoiceEnd(hops, firstHopMs, vadEndMs, noiseFloor(hops));
  }

  /** Whether the audio in [fromMs, toMs) was received and stayed under `voicedRms`. */
  quiet(fromMs: number, toMs: number, voicedRms: number): boolean {
    if (toMs > this.timeMs) return false;
    const { hops, firstHopMs } = this.hops();
    return quietBetween(hops, firstHopMs, fromMs, toMs, voicedRms);
  }
}
