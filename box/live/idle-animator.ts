// Implements: the idle face of a live session (media path): blinks at natural intervals, small
// head motion and breathing. A pure function of the frame index and a seed, so a frame can be
// reproduced exactly and tests need no clock. The slow motions (head, breathing: well under a
// pixel a frame) change every `holdFrames` frames only, blinks every frame: a frame whose
// parameters repeat the previous one's is a copy, not another run of the renderer's model.
import { seededRandom } from "../../shared/util/seeded-random.ts";
import type { FrameParams } from "../render/frame-params.ts";

export interface IdleOptions {
  fps?: number;
  seed?: number;
  /** Scales head motion (1 = a few pixels at 512x512). */
  motion?: number;
  /** Head motion and breathing are updated every this many frames (2: 12.5 Hz at 25 fps). */
  holdFrames?: number;
}

type IdleParams = Pick<FrameParams, "blink" | "headX" | "headY" | "headRoll" | "breathe">;

export class IdleAnimator {
  private readonly fps: number;
  private readonly motion: number;
  private readonly blinkStarts: number[] = [];
  private readonly next: () => number;
  private readonly phase: number[];
  private readonly hold: number;

  constructor(options: IdleOptions = {}) {
    this.fps = options.fps ?? 25;
    this.motion = options.motion ?? 1;
    this.hold = Math.max(1, Math.round(options.holdFrames ?? 2));
    this.next = seededRandom(options.seed ?? 1);
    this.phase = [this.next(), this.next(), this.next()].map((p) => p * Math.PI * 2);
  }

  /** Blink onsets (in frames) are drawn lazily: 2-6 s apart, now and then a double blink. */
  private blinkAt(frame: number): number {
    const len = Math.round(0.16 * this.fps); // ~160 ms close-and-open
    while ((this.blinkStarts.at(-1) ?? -Infinity) < frame) {
      const last = this.blinkStarts.at(-1) ?? Math.round(this.fps * 0.8);
      const gap = this.next() < 0.12 ? len + 2 : Math.round((2 + this.next() * 4) * this.fps);
      this.blinkStarts.push(this.blinkStarts.length === 0 ? last : last + gap);
    }
    for (let i = this.blinkStarts.length - 1; i >= 0; i--) {
      const s = this.blinkStarts[i];
      if (s > frame) continue;
      const t = (frame - s) / len;
      if (t >= 1) return 0;
      // Closing is quicker than opening, as in real blinks.
      return t < 0.4 ? Math.sin((t / 0.4) * (Math.PI / 2)) : Math.cos(((t - 0.4) / 0.6) * (Math.PI / 2));
    }
    return 0;
  }

  params(frame: number): IdleParams {
    const t = (Math.floor(frame / this.hold) * this.hold) / this.fps;
    const [p0, p1, p2] = this.phase;
    const m = this.motion;
    return {
      blink: this.blinkAt(frame),
      headX: m * (2.2 * Math.sin(t * 0.37 * 2 * Math.PI + p0) + 0.8 * Math.sin(t * 0.11 * 2 * Math.PI + p1)),
      headY: m * (1.4 * Math.sin(t * 0.23 * 2 * Math.PI + p1) + 0.6 * Math.sin(t * 0.07 * 2 * Math.PI + p2)),
      headRoll: m * 0.018 * Math.sin(t * 0.17 * 2 * Math.PI + p2),
      breathe: 0.5 + 0.5 * Math.sin(t * 0.25 * 2 * Math.PI + p0),
    };
  }
}
