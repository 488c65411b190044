// Implements: docs/architecture.md "The media path of one live session": one timeline for audio and video.
// Pure core: no timers. Video frame i and audio sample n = i * samplesPerFrame share one instant.

export type AvClockOptions = {
  fps?: number;
  sampleRate?: number;
  audioChunkMs?: number;
  /** Audio written this much earlier than its instant, to balance encoder latencies (at most one frame). */
  audioLeadMs?: number;
  /** Further behind than this (a stalled event loop), the timeline is shifted instead of bursting. */
  maxLagMs?: number;
};

export type AvTick =
  | { kind: "video"; frame: number; dueMs: number }
  /** `offset` is the chunk's first sample inside its video frame's audio. */
  | { kind: "audio"; chunk: number; frame: number; offset: number; samples: number; dueMs: number };

export class AvClock {
  readonly fps: number;
  readonly sampleRate: number;
  readonly frameMs: number;
  readonly chunkMs: number;
  readonly samplesPerFrame: number;
  readonly samplesPerChunk: number;
  readonly chunksPerFrame: number;
  private readonly leadMs: number;
  private readonly maxLagMs: number;
  private nextFrame = 0;
  private nextChunk = 0;
  /** Times the timeline was shifted because the caller fell too far behind. */
  stalls = 0;

  constructor(
    private startMs: number,
    options: AvClockOptions = {},
  ) {
    this.fps = options.fps ?? 25;
    this.sampleRate = options.sampleRate ?? 48_000;
    this.frameMs = 1000 / this.fps;
    this.samplesPerFrame = this.sampleRate / this.fps;
    this.chunksPerFrame = Math.round(this.frameMs / (options.audioChunkMs ?? 20));
    this.samplesPerChunk = this.samplesPerFrame / this.chunksPerFrame;
    this.chunkMs = this.frameMs / this.chunksPerFrame;
    if (!Number.isInteger(this.samplesPerFrame) || !Number.isInteger(this.samplesPerChunk)) {
      throw new Error(`${this.sampleRate} Hz does not split into whole samples per frame and chunk at ${this.fps} fps`);
    }
    this.leadMs = Math.min(Math.max(options.audioLeadMs ?? 0, 0), this.frameMs);
    this.maxLagMs = options.maxLagMs ?? 200;
  }

  videoDueMs(frame: number): number {
    return this.startMs + frame * this.frameMs;
  }

  audioDueMs(chunk: number): number {
    return this.startMs + chunk * this.chunkMs - this.leadMs;
  }

  nextDueMs(): number {
    return Math.min(this.videoDueMs(this.nextFrame), this.audioDueMs(this.nextChunk));
  }

  /** Everything due at `nowMs`, in due order; nothing ahead of its instant (minus the audio lead). */
  tick(nowMs: number): AvTick[] {
    const lag = nowMs - this.nextDueMs();
    if (lag > this.maxLagMs) {
      this.startMs += lag; // keep indices continuous, move the instants: no burst of stale media
      this.stalls++;
    }
    const out: AvTick[] = [];
    for (;;) {
      const v = this.videoDueMs(this.nextFrame);
      const a = this.audioDueMs(this.nextChunk);
      if (Math.min(v, a) > nowMs) return out;
      // On a tie video goes first: frame i is then fully handed out before frame i+1 is asked for.
      if (a < v) {
        const chunk = this.nextChunk++;
        const frame = Math.floor(chunk / this.chunksPerFrame);
        const offset = (chunk % this.chunksPerFrame) * this.samplesPerChunk;
        out.push({ kind: "audio", chunk, frame, offset, samples: this.samplesPerChunk, dueMs: a });
      } else {
        out.push({ kind: "video", frame: this.nextFrame++, dueMs: v });
      }
    }
  }
}
