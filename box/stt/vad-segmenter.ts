// Implements: turning microphone frames of "Voice socket `WSS /api/voice/ws`" (16 kHz mono s16le
// binary frames) into speech segments (docs/architecture.md "Voice activity"). Pure: no model, no I/O;
// voice-activity.ts joins it to SileroVad.
export const VAD_SAMPLE_RATE = 16_000;
/** Samples per model window (32 ms at 16 kHz). */
export const VAD_WINDOW = 512;
export const WINDOW_MS = (VAD_WINDOW * 1000) / VAD_SAMPLE_RATE; // 32

export type VadEvent =
  /** `atMs`: audio time of the first voiced window; emitted once `minSpeechMs` of voice was heard. */
  | { type: "speech_start"; atMs: number }
  /** `atMs`: audio time the last voiced window ended; emitted after `minSilenceMs` of silence. */
  | { type: "speech_end"; atMs: number; durationMs: number }
  /** One per window, for telemetry. */
  | { type: "probability"; atMs: number; probability: number };

export interface VadSegmenterOptions {
  /** Probability at which silence turns into (candidate) speech. */
  startThreshold?: number;
  /** Probability under which speech counts as silence (hysteresis: lower than the start). */
  endThreshold?: number;
  /** Voiced time a segment needs before it is reported (coughs and clicks are shorter). */
  minSpeechMs?: number;
  /** Silence that ends a segment; shorter gaps are merged into it. */
  minSilenceMs?: number;
  /** Emit a `probability` event per window. */
  probabilities?: boolean;
}

const DEFAULTS: Required<VadSegmenterOptions> = {
  startThreshold: 0.5,
  endThreshold: 0.35,
  minSpeechMs: 250,
  minSilenceMs: 500,
  probabilities: true,
};

export interface PcmFrame {
  pcm: Int16Array;
  /** True when the frame had an odd byte count: its last byte was dropped. */
  oddLength: boolean;
}

/** A binary socket frame (s16le, little-endian host) as samples: shares the bytes when 2-aligned, else copies. */
export function pcmFromBytes(bytes: Uint8Array): PcmFrame {
  const oddLength = bytes.byteLength % 2 === 1;
  const samples = bytes.byteLength >> 1;
  if (bytes.byteOffset % 2 === 0) {
    return { pcm: new Int16Array(bytes.buffer, bytes.byteOffset, samples), oddLength };
  }
  const pcm = new Int16Array(samples);
  new Uint8Array(pcm.buffer).set(bytes.subarray(0, samples * 2));
  return { pcm, oddLength };
}

/** Cuts s16 chunks of any length into 512-sample float windows in [-1, 1]. */
export class VadFramer {
  private readonly pending = new Float32Array(VAD_WINDOW);
  private filled = 0;

  push(pcm: Int16Array): Float32Array[] {
    const windows: Float32Array[] = [];
    for (let i = 0; i < pcm.length; i++) {
      this.pending[this.filled++] = pcm[i] / 32768;
      if (this.filled === VAD_WINDOW) {
        windows.push(this.pending.slice());
        this.filled = 0;
      }
    }
    return windows;
  }

  /** Samples held back waiting for a full window. */
  get buffered(): number {
    return this.filled;
  }

  reset(): void {
    this.filled = 0;
  }
}

/** Hysteresis, minimum speech and minimum silence over a sequence of window probabilities. */
export class VadSegmenter {
  private readonly o: Required<VadSegmenterOptions>;
  private windows = 0;
  private state: "silence" | "candidate" | "speech" = "silence";
  private onsetMs = 0;
  private voicedMs = 0;
  private lastVoicedEndMs = 0;
  private gapMs = 0;

  constructor(options: VadSegmenterOptions = {}) {
    this.o = { ...DEFAULTS, ...options };
    if (this.o.endThreshold > this.o.startThreshold) throw new RangeError("endThreshold must not exceed startThreshold");
  }

  /** True between `speech_start` and `speech_end`. */
  get speaking(): boolean {
    return this.state === "speech";
  }

  /** Audio time consumed so far. */
  get timeMs(): number {
    return this.windows * WINDOW_MS;
  }

  /** Feeds the probability of the next 32 ms window. */
  push(probability: number): VadEvent[] {
    const atMs = this.windows * WINDOW_MS;
    const endMs = atMs + WINDOW_MS;
    this.windows++;
    const events: VadEvent[] = this.o.probabilities ? [{ type: "probability", atMs, probability }] : [];
    const voiced = probability >= (this.state === "silence" ? this.o.startThreshold : this.o.endThreshold);
    if (this.state === "silence") {
      if (voiced) {
        this.state = "candidate";
        this.onsetMs = atMs;
        this.voicedMs = WINDOW_MS;
        this.lastVoicedEndMs = endMs;
        this.gapMs = 0;
      }
    } else if (voiced) {
      this.voicedMs += WINDOW_MS;
      this.lastVoicedEndMs = endMs;
      this.gapMs = 0;
    } else {
      this.gapMs += WINDOW_MS;
      if (this.gapMs >= this.o.minSilenceMs) {
        if (this.state === "speech") events.push(this.endEvent());
        this.state = "silence";
      }
    }
    if (this.state === "candidate" && this.voicedMs >= this.o.minSpeechMs) {
      this.state = "speech";
      events.push({ type: "speech_start", atMs: this.onsetMs });
    }
    return events;
  }

  /** End of audio: closes an open segment. */
  flush(): VadEvent[] {
    const events = this.state === "speech" ? [this.endEvent()] : [];
    this.state = "silence";
    return events;
  }

  reset(): void {
    this.windows = 0;
    this.state = "silence";
    this.gapMs = 0;
  }

  private endEvent(): VadEvent {
    return { type: "speech_end", atMs: this.lastVoicedEndMs, durationMs: this.lastVoicedEndMs - this.onsetMs };
  }
}
