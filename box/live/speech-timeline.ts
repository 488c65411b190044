// Implements: the utterance queue of a live session on one frame timeline. Each queued utterance
// is given a start frame; audio and mouth shape of frame i are pure lookups into the same
// schedule, so picture and sound cannot drift apart. `interrupt` cuts the schedule at a frame;
// `hold` stops it at a frame (silence from there) and `release` goes on from that very frame.
import type { MouthParams } from "../render/frame-params.ts";
import type { Tone } from "../../shared/wire/tones.ts";

export interface UtteranceInput {
  text: string;
  tone: Tone;
  /** 48 kHz mono PCM. */
  pcm48k: Int16Array;
  /** One mouth shape per video frame. */
  mouth: MouthParams[];
  correlationId?: string;
}

export interface Scheduled extends UtteranceInput {
  id: number;
  startFrame: number;
  /** Exclusive end frame. */
  endFrame: number;
}

export class SpeechTimeline {
  private queue: Scheduled[] = [];
  private nextId = 1;
  /** The frame speech stopped at while held (barge-in step one); null when not held. */
  private heldAt: number | null = null;

  constructor(private readonly samplesPerFrame = 1920) {}

  /** Queues after everything already scheduled, never before `earliestFrame`. */
  enqueue(u: UtteranceInput, earliestFrame: number): Scheduled {
    // While held the schedule's time stands still at the held frame; release moves it on.
    if (this.heldAt !== null) earliestFrame = Math.min(earliestFrame, this.heldAt);
    const last = this.queue.at(-1);
    const start = Math.max(earliestFrame, last ? last.endFrame : earliestFrame);
    const frames = Math.max(u.mouth.length, Math.ceil(u.pcm48k.length / this.samplesPerFrame), 1);
    const s: Scheduled = { ...u, id: this.nextId++, startFrame: start, endFrame: start + frames };
    this.queue.push(s);
    return s;
  }

  /** The utterance playing at `frame`, if any. */
  at(frame: number): Scheduled | null {
    if (this.heldAt !== null && frame >= this.heldAt) return null;
    for (const s of this.queue) {
      if (frame < s.startFrame) return null;
      if (frame < s.endFrame) return s;
    }
    return null;
  }

  mouthAt(frame: number): MouthParams | null {
    const s = this.at(frame);
    return s ? (s.mouth[frame - s.startFrame] ?? null) : null;
  }

  /** This frame's audio (silence when nothing plays). */
  audioAt(frame: number, out = new Int16Array(this.samplesPerFrame)): Int16Array {
    out.fill(0);
    const s = this.at(frame);
    if (s) {
      const from = (frame - s.startFrame) * this.samplesPerFrame;
      out.set(s.pcm48k.subarray(from, Math.min(s.pcm48k.length, from + this.samplesPerFrame)));
    }
    return out;
  }

  /** Drops everything from `frame` on (the one playing is cut there). Returns what was cut. */
  interrupt(frame: number): Scheduled[] {
    const cut: Scheduled[] = [];
    const keep: Scheduled[] = [];
    for (const s of this.queue) {
      if (s.endFrame <= frame) keep.push(s);
      else if (s.startFrame < frame) {
        cut.push({ ...s });
        keep.push({ ...s, endFrame: frame, mouth: s.mouth.slice(0, frame - s.startFrame) });
      } else cut.push(s);
    }
    this.queue = keep;
    this.heldAt = null;
    return cut;
  }

  get held(): boolean {
    return this.heldAt !== null;
  }

  /** Stops the schedule at `frame`: nothing plays from there, nothing queued is dropped. */
  hold(frame: number): void {
    this.heldAt ??= frame;
  }

  /**
   * Goes on at `frame` from where the hold stopped: everything not yet played moves later by the
   * held time, so the next frame plays the audio that was due at the held frame (nothing skipped
   * or repeated). Returns the frames it moved by.
   */
  release(frame: number): number {
    if (this.heldAt === null) return 0;
    const shift = Math.max(0, frame - this.heldAt);
    for (const s of this.queue) {
      if (s.endFrame <= this.heldAt) continue;
      s.startFrame += shift;
      s.endFrame += shift;
    }
    this.heldAt = null;
    return shift;
  }

  /** Whether utterance `id` still has frames to play after `frame`. */
  pendingAfter(id: number, frame: number): boolean {
    return this.queue.some((s) => s.id === id && (s.endFrame > frame + 1 || (this.heldAt !== null && s.endFrame > this.heldAt)));
  }

  /** Whether an utterance queued after `id` carries the same correlation id. */
  queuedAfter(id: number, correlationId: string): boolean {
    return this.queue.some((s) => s.id > id && s.correlationId === correlationId);
  }

  /** Forgets utterances that ended before `frame`. */
  prune(frame: number): void {
    this.queue = this.queue.filter((s) => s.endFrame > frame);
  }

  /** The frame after which nothing is scheduled. */
  get endFrame(): number {
    return this.queue.at(-1)?.endFrame ?? 0;
  }

  get pending(): number {
    return this.queue.length;
  }
}
