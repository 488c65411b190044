// Implements: the utterance queue of a live session on one frame timeline. Each queued utterance
// is given a start frame; audio and mouth shape of frame i are pure lookups into the same
// schedule, so picture and sound cannot drift apart. `interrupt` cuts the schedule at a frame;
// `hold` stops it at a frame (silence from there) and `release` goes on from that very frame.
// An open utterance (a voice still streaming) grows at its end; when the clock reaches frames that
// have not arrived the schedule stalls the same way (the avatar waits) until they do.
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
  /** Exclusive end frame (of what has arrived, while open). */
  endFrame: number;
  /** Still arriving: frames past `endFrame` may come, and nothing after it plays before them. */
  open?: boolean;
}

export class SpeechTimeline {
  private queue: Scheduled[] = [];
  private nextId = 1;
  /** The frame speech stopped at while held (barge-in step one) or stalled; null when neither. */
  private heldAt: number | null = null;
  /** Held by `hold` (barge-in), released by `release`. */
  private holding = false;
  /** The open utterance the schedule waits for (its next frame has not arrived); null when none. */
  private starvedOn: Scheduled | null = null;

  constructor(private readonly samplesPerFrame = 1920) {}

  /** Queues after everything already scheduled, never before `earliestFrame`. */
  enqueue(u: UtteranceInput, earliestFrame: number, open = false): Scheduled {
    // While held the schedule's time stands still at the held frame; release moves it on.
    if (this.heldAt !== null) earliestFrame = Math.min(earliestFrame, this.heldAt);
    const last = this.queue.at(-1);
    const start = Math.max(earliestFrame, last ? last.endFrame : earliestFrame);
    const s: Scheduled = { ...u, id: this.nextId++, startFrame: start, endFrame: start + this.framesOf(u, open) };
    if (open) s.open = true;
    this.queue.push(s);
    return s;
  }

  /**
   * Open utterance `id` now holds `u` (what it held, and more); `done` closes it. What is queued
   * after it moves later by its growth. Returns the first frame that changed, or null when it is
   * no longer open (cut, or unknown).
   */
  grow(id: number, u: UtteranceInput, done: boolean): number | null {
    const i = this.queue.findIndex((s) => s.id === id);
    const s = this.queue[i];
    if (!s?.open) return null;
    const from = s.endFrame;
    s.pcm48k = u.pcm48k;
    s.mouth = u.mouth;
    s.endFrame = s.startFrame + Math.max(s.endFrame - s.startFrame, this.framesOf(u, !done));
    if (done) delete s.open;
    for (let j = i + 1, end = s.endFrame; j < this.queue.length; end = this.queue[j++].endFrame) {
      const next = this.queue[j];
      const shift = Math.max(0, end - next.startFrame);
      next.startFrame += shift;
      next.endFrame += shift;
    }
    return from;
  }

  /**
   * Everything starting at `frame` or later moves one frame on (the picture of an utterance's
   * first frame was not drawn in time: its sound waits for its mouth).
   */
  postpone(frame: number): void {
    for (const s of this.queue) {
      if (s.startFrame < frame) continue;
      s.startFrame++;
      s.endFrame++;
    }
  }

  /** Whether the clock at `frame` reaches past what an open utterance has delivered. */
  starvedAt(frame: number): Scheduled | null {
    for (const s of this.queue) {
      if (frame < s.startFrame || frame < s.endFrame) return null;
      if (s.open) return s;
    }
    return null;
  }

  /** The schedule waits at `frame` for open utterance `s` (silence and a resting mouth meanwhile). */
  stall(frame: number, s: Scheduled): void {
    this.starvedOn = s;
    this.heldAt ??= frame;
  }

  /** The utterance the schedule waits for, if it is stalled. */
  get waitingFor(): Scheduled | null {
    return this.starvedOn;
  }

  /** Whether the stalled utterance now has its next frame (or ended): `resume` may go on. */
  get canResume(): boolean {
    const s = this.starvedOn;
    if (!s || this.heldAt === null) return false;
    return !s.open || this.heldAt < s.endFrame || !this.queue.includes(s);
  }

  /** Ends a stall at `frame`; the schedule goes on unless a barge-in hold still holds it. */
  resume(frame: number): number {
    if (!this.starvedOn) return 0;
    this.starvedOn = null;
    return this.holding ? 0 : this.moveOn(frame);
  }

  /** Pausing for any reason (hold or stall). */
  get paused(): boolean {
    return this.heldAt !== null;
  }

  private framesOf(u: UtteranceInput, open: boolean): number {
    const frames = Math.max(u.mouth.length, Math.ceil(u.pcm48k.length / this.samplesPerFrame));
    return open ? frames : Math.max(frames, 1);
  }

  /** The utterance playing at `frame`, if any. */
  at(frame: number): Scheduled | null {
    if (this.heldAt !== null && frame >= this.heldAt) return null;
    for (const s of this.queue) {
      if (frame < s.startFrame) return null;
      if (frame < s.endFrame) return s;
      if (s.open) return null; // not arrived yet: nothing after it plays before it
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
      // A cut open utterance stays closed: what still arrives for it is not played.
      if (s.endFrame <= frame && !s.open) keep.push(s);
      else if (s.startFrame < frame) {
        cut.push({ ...s });
        const end = Math.min(frame, s.endFrame);
        const { open: _, ...closed } = s;
        keep.push({ ...closed, endFrame: end, mouth: s.mouth.slice(0, end - s.startFrame) });
      } else cut.push(s);
    }
    this.queue = keep;
    this.heldAt = null;
    this.holding = false;
    this.starvedOn = null;
    return cut;
  }

  /** Held by a barge-in (a stall alone is not a hold). */
  get held(): boolean {
    return this.holding;
  }

  /** Stops the schedule at `frame`: nothing plays from there, nothing queued is dropped. */
  hold(frame: number): void {
    this.holding = true;
    this.heldAt ??= frame;
  }

  /**
   * Goes on at `frame` from where the hold stopped: everything not yet played moves later by the
   * held time, so the next frame plays the audio that was due at the held frame (nothing skipped
   * or repeated). Returns the frames it moved by.
   */
  release(frame: number): number {
    if (!this.holding) return 0;
    this.holding = false;
    // Still waiting for a stream: it goes on when that arrives.
    return this.starvedOn ? 0 : this.moveOn(frame);
  }

  private moveOn(frame: number): number {
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
    return this.queue.some((s) => s.id === id && (s.open || s.endFrame > frame + 1 || (this.heldAt !== null && s.endFrame > this.heldAt)));
  }

  /** Whether an utterance queued after `id` carries the same correlation id. */
  queuedAfter(id: number, correlationId: string): boolean {
    return this.queue.some((s) => s.id > id && s.correlationId === correlationId);
  }

  /** Forgets utterances that ended before `frame`. */
  prune(frame: number): void {
    this.queue = this.queue.filter((s) => s.endFrame > frame || s.open);
  }

  /** The frame after which nothing is scheduled. */
  get endFrame(): number {
    return this.queue.at(-1)?.endFrame ?? 0;
  }

  get pending(): number {
    return this.queue.length;
  }
}
