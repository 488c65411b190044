// Implements: the idle base of a video face (issue 10 item 3; docs/architecture.md "A video face"): the frames
// it was filmed with, looped ping-pong, each with its own anchors. The live session renders frame
// i of its clock on loop frame `pingPong(i, count)`.
import type { PreparedFace } from "../render/prepared-face.ts";

/** The loop of one tone's footage, as the live session sees it. */
export interface FrameSource {
  /** Frames in the loop before the ping-pong (N): played 0..N-1, then N-1..0, and again. */
  readonly count: number;
  /** Loop frame 0, always in memory: shown while the loop loads, and the tone's still. */
  readonly still: PreparedFace;
  /** Keeps the frames in memory for one user (a live session); resolves once they are loaded. */
  acquire(): Promise<void>;
  /** Ends one `acquire`; the frames are dropped when nobody holds them. */
  release(): void;
  /** Loop frame k (0 <= k < count) as the renderer's face, or null while not loaded. */
  frame(k: number): PreparedFace | null;
}

/** A video face's loops: its own footage, and per tone the `take__<tone>` footage when one was sent. */
export interface FrameSources {
  base: FrameSource;
  takes: Partial<Record<string, FrameSource>>;
}

/** The loop a tone plays: its take, else the base video. */
export function sourceForTone(sources: FrameSources, tone: string): FrameSource {
  return sources.takes[tone] ?? sources.base;
}

/**
 * Ping-pong index: 0, 1, ..., n-1, n-1, ..., 1, 0, 0, 1, ... (frame i and 2n-1-i show the same
 * loop frame; each turnaround frame is held for two frames). Any integer i, negative included.
 */
export function pingPong(i: number, n: number): number {
  if (n <= 1) return 0;
  const k = ((i % (2 * n)) + 2 * n) % (2 * n);
  return k < n ? k : 2 * n - 1 - k;
}
