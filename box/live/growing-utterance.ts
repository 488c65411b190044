// Implements: streaming synthesis into the live session (docs/api-notes.md "Streaming voices in the live session"): one clause
// as a streaming voice engine sends it. Audio is resampled to 48 kHz as it arrives and the mouth
// track is extended frame by frame, from the provider's timings (as phonemes) when they cover the
// frame, else from the audio itself. A frame is handed out only once both its audio and its mouth
// are final, so the timeline never plays a sound whose picture could still change.
import type { Tone } from "../../shared/wire/tones.ts";
import type { MouthParams } from "../render/frame-params.ts";
import type { PhonemeTiming } from "../tts/engine.ts";
import { inputNeeded, LIVE_RESAMPLE, resampledLength, resampleSpan } from "../tts/resample.ts";
import { mouthTrackFromPhonemes } from "../lipsync/mouth-track.ts";
import { mouthTrackFromAudio } from "../lipsync/audio-mouth.ts";
import type { UtteranceInput } from "./speech-timeline.ts";

/** Timings settle a frame once they reach this far past its end (the next sounds pull the mouth early). */
const TIMING_LEAD_MS = 120;
/** Audio this far past a frame that no timing covers: its mouth comes from the audio ... */
const AUDIO_WAIT_MS = 280;
/**
 * ... except at the start: the first frames that no timing covers yet take their mouth from the
 * audio as soon as one frame of audio lies past them (ONSET_CONTEXT_FRAMES), so a provider whose
 * timings trail its audio by a word (Cartesia) does not hold the first sound back until that word
 * ends, nor for a second chunk of audio: a first chunk of 100 ms already settles the first frame.
 * One frame past it is what the frame's own shape reads (its spectral window reaches half a frame
 * past it, the 1-2-1 smoothing one frame); only the slew limit of later frames could still lower
 * it, by at most one step.
 */
const ONSET_FRAMES = 4;
const ONSET_CONTEXT_FRAMES = 1;
/** ... or this far once timings flow (they lag the audio by up to a word: wait for them). */
const TIMED_AUDIO_WAIT_MS = 1200;
/** Audio context each side of the frames the audio mouth computes (its window and smoothing). */
const AUDIO_CONTEXT_FRAMES = 2;
/** While the stream is open the newest frame of audio is kept back, so a cut can fade out over it. */
const HOLDBACK_FRAMES = 1;
const FADE_MS = 20;
const REST: MouthParams = { open: 0, wide: 0, round: 0 };

export class GrowingUtterance {
  private src: Int16Array = new Int16Array(0);
  private srcLen = 0;
  private rate = 0;
  private out: Int16Array = new Int16Array(0);
  private outLen = 0;
  private readonly mouth: MouthParams[] = [];
  private readonly phonemes: PhonemeTiming[] = [];
  private timedUntilMs = 0;
  private readonly listeners = new Set<() => void>();
  private settle: () => void = () => {};
  /** True once the stream ended (finished, cut or aborted); nothing grows after. */
  done = false;
  /** Why the stream stopped early (what arrived before it is kept); null when it finished. */
  failure: Error | null = null;
  /** Resolves when the stream ended, whichever way. */
  readonly finished = new Promise<void>((r) => (this.settle = r));
  private readonly spf: number;

  constructor(
    readonly text: string,
    readonly tone: Tone,
    private readonly fps = 25,
  ) {
    this.spf = 48000 / fps;
  }

  /** A clause that arrived whole (an engine without streaming): already done. */
  static whole(u: UtteranceInput, fps = 25): GrowingUtterance {
    const g = new GrowingUtterance(u.text, u.tone, fps);
    g.out = u.pcm48k;
    g.outLen = u.pcm48k.length;
    g.mouth.push(...u.mouth);
    g.finish(null);
    return g;
  }

  /** Frames whose audio and mouth are final (all of them once done). */
  get frames(): number {
    if (this.done) return Math.max(this.mouth.length, Math.ceil(this.outLen / this.spf));
    return this.mouth.length;
  }

  /** Whether any audio arrived. */
  get audible(): boolean {
    return this.outLen > 0 || this.srcLen > 0;
  }

  /** What can be played now: the final frames only. */
  snapshot(): UtteranceInput {
    const n = this.frames;
    return {
      text: this.text,
      tone: this.tone,
      pcm48k: this.out.subarray(0, this.done ? this.outLen : n * this.spf),
      mouth: this.mouth.slice(0, n),
    };
  }

  /** Called whenever frames were added or the stream ended. */
  onGrow(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Audio as it arrives (s16 mono, one rate per stream), with phoneme timings in ms from its first sample. */
  push(pcm: Int16Array, sampleRate: number, phonemes: readonly PhonemeTiming[] = []): void {
    if (this.done) return;
    if (this.rate === 0) this.rate = sampleRate;
    if (pcm.length > 0) this.appendSource(pcm);
    for (const p of phonemes) {
      this.phonemes.push(p);
      this.timedUntilMs = Math.max(this.timedUntilMs, p.endMs);
    }
    const before = this.frames;
    this.advance();
    if (this.frames !== before) this.notify();
  }

  /** The stream ended: everything that arrived becomes final; `failure` says it was cut. */
  end(failure: Error | null = null): void {
    if (this.done) return;
    if (this.rate > 0) this.resampleTo(resampledLength(this.srcLen, this.rate, 48000));
    if (failure) this.fadeTail();
    const total = Math.ceil(this.outLen / this.spf);
    if (this.mouth.length < total) this.settleMouth(total, true);
    // Cut or whole, it ends with the mouth at rest on its last frame.
    if (failure && this.mouth.length > 0) this.mouth[this.mouth.length - 1] = REST;
    this.finish(failure);
  }

  private finish(failure: Error | null): void {
    this.done = true;
    this.failure = failure;
    this.notify();
    this.listeners.clear();
    this.settle();
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }

  private appendSource(pcm: Int16Array): void {
    if (this.srcLen + pcm.length > this.src.length) {
      const grown = new Int16Array(Math.max(this.srcLen + pcm.length, this.src.length * 2, 4096));
      grown.set(this.src.subarray(0, this.srcLen));
      this.src = grown;
    }
    this.src.set(pcm, this.srcLen);
    this.srcLen += pcm.length;
  }

  private get srcMs(): number {
    return this.rate > 0 ? (this.srcLen / this.rate) * 1000 : 0;
  }

  /** Resamples what the filter can already see, then settles the mouth of complete frames. */
  private advance(): void {
    if (this.rate === 0) return;
    let n = Math.floor((this.srcLen * 48000) / this.rate);
    while (n > this.outLen && inputNeeded(n - 1, this.rate, 48000, LIVE_RESAMPLE) > this.srcLen) n--;
    this.resampleTo(n);
    const audioFrames = Math.max(0, Math.floor(this.outLen / this.spf) - HOLDBACK_FRAMES);
    if (audioFrames > this.mouth.length) this.settleMouth(audioFrames, false);
  }

  private resampleTo(n: number): void {
    if (n <= this.outLen) return;
    if (n > this.out.length) {
      const grown = new Int16Array(Math.max(n, this.out.length * 2, 48000));
      grown.set(this.out.subarray(0, this.outLen));
      this.out = grown;
    }
    const src = this.src.subarray(0, this.srcLen);
    this.out.set(resampleSpan(src, this.rate, 48000, this.outLen, n, LIVE_RESAMPLE), this.outLen);
    this.outLen = n;
  }

  /**
   * Mouth shapes for frames up to `limit`: from the timings where they reach far enough past the
   * frame, else from the audio once enough has arrived past it (or the stream ended).
   */
  private settleMouth(limit: number, final: boolean): void {
    const frameMs = 1000 / this.fps;
    const timed = this.phonemes.length > 0;
    // Open: computed past the timings' end, so the track's closing last frame is out of the way.
    const byTimings = timed ? mouthTrackFromPhonemes(this.phonemes, final ? this.srcMs : this.timedUntilMs + 400, this.fps) : [];
    let byAudio: { first: number; track: MouthParams[] } | null = null;
    for (let k = this.mouth.length; k < limit; k++) {
      const endMs = (k + 1) * frameMs;
      if (timed && (final || endMs + TIMING_LEAD_MS <= this.timedUntilMs) && k < byTimings.length) {
        this.mouth.push(byTimings[k]);
        continue;
      }
      const wait = k < ONSET_FRAMES ? ONSET_CONTEXT_FRAMES * frameMs : timed ? TIMED_AUDIO_WAIT_MS : AUDIO_WAIT_MS;
      if (!final && this.srcMs < endMs + wait) break;
      byAudio ??= this.audioTrack(k);
      this.mouth.push(byAudio.track[k - byAudio.first] ?? REST);
    }
  }

  /** The audio mouth from frame `from` on, over what has arrived (with a little context before). */
  private audioTrack(from: number): { first: number; track: MouthParams[] } {
    const first = Math.max(0, from - AUDIO_CONTEXT_FRAMES);
    const perFrame = this.rate / this.fps;
    const slice = this.src.subarray(Math.round(first * perFrame), this.srcLen);
    return { first, track: mouthTrackFromAudio(slice, this.rate, this.fps) };
  }

  /** A cut stream fades out over the audio not handed out yet, so it does not end on a click. */
  private fadeTail(): void {
    const released = this.mouth.length * this.spf;
    const from = Math.max(released, this.outLen - Math.round((48000 * FADE_MS) / 1000));
    const len = this.outLen - from;
    for (let i = 0; i < len; i++) this.out[from + i] = Math.round(this.out[from + i] * (1 - (i + 1) / len));
  }
}
