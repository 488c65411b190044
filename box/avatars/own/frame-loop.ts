// Implements: a video face's idle loop in memory (FrameSource, ../frame-source.ts), read from the
// volume while a live session holds it and dropped when none does. Each loop frame is one
// PreparedFace object, built once per load, so the renderer's per-face crop cache holds for the
// whole session (box/render/README.md "Crop mode": the crop is planned once per face object).
// Every frame carries the loop's one mouth palette (sampled on its first frame): the painted
// interior keeps one colour through the loop instead of following each frame's small changes.
import type { FrameSource } from "../frame-source.ts";
import { sampleMouthPalette } from "../../render/mouth-palette.ts";
import type { FaceAnchors, PreparedFace } from "../../render/prepared-face.ts";

export class FrameLoop implements FrameSource {
  private faces: PreparedFace[] | null = null;
  private loading: Promise<void> | null = null;
  private holders = 0;

  constructor(
    readonly count: number,
    private readonly anchors: FaceAnchors[],
    readonly still: PreparedFace,
    private readonly size: number,
    /** Reads the frames, back to back (count x I420 at size x size). */
    private readonly read: () => Promise<Uint8Array>,
  ) {
    if (anchors.length !== count) throw new Error(`FrameLoop: ${anchors.length} anchors for ${count} frames`);
  }

  get loaded(): boolean {
    return this.faces !== null;
  }

  acquire(): Promise<void> {
    this.holders++;
    return this.load();
  }

  release(): void {
    if (this.holders === 0) return;
    if (--this.holders === 0) {
      this.faces = null;
      this.loading = null;
    }
  }

  frame(k: number): PreparedFace | null {
    return this.faces?.[k] ?? null;
  }

  private load(): Promise<void> {
    if (this.faces) return Promise.resolve();
    if (this.loading) return this.loading;
    const attempt: Promise<void> = this.read().then((bytes) => {
      const frameBytes = (this.size * this.size * 3) / 2;
      if (bytes.length !== this.count * frameBytes)
        throw new Error(`loop frames are ${bytes.length} bytes, expected ${this.count} x ${frameBytes}`);
      // Released (or reloaded) while reading: keep nothing.
      if (this.loading !== attempt || this.holders === 0) return;
      const palette = this.still.palette ?? sampleMouthPalette(this.still.i420, this.size, this.size, this.still.anchors);
      this.faces = this.anchors.map((anchors, k) => ({
        width: this.size,
        height: this.size,
        i420: bytes.subarray(k * frameBytes, (k + 1) * frameBytes),
        anchors,
        palette,
      }));
    });
    this.loading = attempt;
    attempt.catch(() => {
      if (this.loading === attempt) this.loading = null;
    });
    return attempt;
  }
}

/** The renderer's anchors from the 19 numbers stored per frame (box/render/README.md order). */
export function anchorsFromVector(v: number[]): FaceAnchors {
  return {
    face: { x: v[0], y: v[1], width: v[2], height: v[3] },
    mouth: { x: v[4], y: v[5], width: v[6] },
    leftEye: { x: v[7], y: v[8], width: v[9], height: v[10] },
    rightEye: { x: v[11], y: v[12], width: v[13], height: v[14] },
    leftBrow: { x: v[15], y: v[16] },
    rightBrow: { x: v[17], y: v[18] },
  };
}
