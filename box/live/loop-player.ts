// Implements: how a live session plays a video face (issue 10 item 3; docs/architecture.md "A video face"):
// the face's loops are held in memory while it is on screen, session frame i shows loop frame
// pingPong(i), the loop is the one of the tone speaking (its `take__<tone>`, else the base
// video), and a change of loop fades over FADE_FRAMES frames instead of cutting (a hard switch
// between two sources is seen as a jump).
import { pingPong, sourceForTone, type FrameSource, type FrameSources } from "../avatars/frame-source.ts";
import type { PreparedFace } from "../render/prepared-face.ts";
import { log } from "../../shared/util/log.ts";

/** 4 frames at 25 fps: 160 ms, long enough to read as a dissolve rather than a cut. */
export const FADE_FRAMES = 4;

export interface LoopFaces {
  face: PreparedFace;
  /** The loop being left, while a fade lasts, and the share of `face` in the picture. */
  from?: PreparedFace;
  weight: number;
}

const loopsOf = (f: FrameSources) => [f.base, ...Object.values(f.takes)].filter((l) => l !== undefined);
/** Frame i of the session on a loop (its still until the frames are read). */
const loopFrame = (loop: FrameSource, i: number): PreparedFace => loop.frame(pingPong(i, loop.count)) ?? loop.still;

export class LoopPlayer {
  private held: FrameSources | null = null;
  /** The loop each recent frame played; frames are picked in order (again after an invalidation). */
  private readonly played = new Map<number, FrameSource>();

  /** Whether `frames` are the ones held. */
  holds(frames: FrameSources | undefined): boolean {
    return (frames ?? null) === this.held;
  }

  /** Keeps every loop of one video face in memory (resolves once read); lets go of the previous face's. */
  async hold(frames: FrameSources | undefined): Promise<void> {
    if (this.holds(frames)) return;
    this.letGo();
    if (!frames) return;
    this.held = frames;
    await Promise.all(loopsOf(frames).map((l) => l.acquire())).catch((err: Error) => {
      log.error("video loop not loaded; its still is shown", { error: err.message });
    });
  }

  letGo(): void {
    const held = this.held;
    this.held = null;
    if (held) for (const l of loopsOf(held)) l.release();
  }

  /** The faces session frame `frame` is rendered from, for a video face speaking (or resting) in `tone`. */
  faces(frame: number, frames: FrameSources, tone: string): LoopFaces {
    const loop = sourceForTone(frames, tone);
    // Kept a little longer than a fade: the session renders a few frames ahead and may render
    // them again (an utterance queued), from a frame whose predecessors must still be known.
    for (const k of this.played.keys()) if (k >= frame || k < frame - FADE_FRAMES - 8) this.played.delete(k);
    this.played.set(frame, loop);
    for (let j = 1; j <= FADE_FRAMES; j++) {
      const before = this.played.get(frame - j);
      if (before === undefined) break;
      if (before !== loop) return { face: loopFrame(loop, frame), from: loopFrame(before, frame), weight: j / (FADE_FRAMES + 1) };
    }
    return { face: loopFrame(loop, frame), weight: 1 };
  }
}

/** out = out·w + other·(1 − w), byte by byte (I420 planes blend like any other pixels). */
export function blendInto(out: Uint8Array, other: Uint8Array, w: number): void {
  const a = Math.round(w * 256);
  const b = 256 - a;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] * a + other[i] * b + 128) >> 8;
}
