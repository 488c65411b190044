// Implements: the renderer's face input (docs/architecture.md "The media path of one live session"): an I420 still of the face at
// the output size plus the landmark anchors the face-warp model needs (box/render/README.md).
import { rgbaToI420 } from "./i420.ts";
import type { MotionLimits } from "./motion-limits.ts";
import { sampleMouthPalette, type MouthPalette } from "./mouth-palette.ts";

export interface Point {
  x: number;
  y: number;
}

/**
 * Landmark anchors in pixels of the output frame (pixel centres at i + 0.5).
 * "left"/"right" are image left/right, not the person's.
 */
export interface FaceAnchors {
  /** Face oval without hair: centre, width at the cheekbones, height from hairline to chin (chin = y + height/2). */
  face: Point & { width: number; height: number };
  /**
   * Mouth: the centre of the line where the lips meet (just under the upper lip when they are
   * apart), the corner-to-corner width, and optionally `gap`: how far below that line the
   * picture has its lower lip's inner edge at the centre (px; absent or 0: lips together). The
   * renderer closes a picture's open mouth at rest (box/render/README.md "The mouth").
   */
  mouth: Point & { width: number; gap?: number };
  /** Eyes: centre of the opening, corner-to-corner width, lid-to-lid height of the open eye. */
  leftEye: Point & { width: number; height: number };
  rightEye: Point & { width: number; height: number };
  /** Eyebrows: the middle of each brow. */
  leftBrow: Point;
  rightBrow: Point;
  /**
   * How much of the renderer's motion this face takes (motion-limits.ts); absent: all of it.
   * Set by photo preparation for a photo it found hard (box/render/README.md "Hard photos");
   * kept with the anchors so a face loaded from storage moves the same. Not part of the model's input.
   */
  motion?: MotionLimits;
}

/** A face ready for the renderer: I420 (Y, then U, then V; chroma at half size) plus anchors. */
export interface PreparedFace {
  width: number;
  height: number;
  i420: Uint8Array;
  anchors: FaceAnchors;
  /**
   * The mouth interior's colours, sampled from the face's own pixels (mouth-palette.ts).
   * Optional: the renderer samples the same palette itself for a face without one (e.g. one
   * loaded from storage as pixels and anchors only).
   */
  palette?: MouthPalette;
}

/** Number of floats in the model's `anchors` input. */
export const ANCHOR_COUNT = 19;

/** The model's `anchors` input, in the order box/render/README.md documents. */
export function anchorsToVector(a: FaceAnchors, out = new Float32Array(ANCHOR_COUNT)): Float32Array {
  const v = [
    a.face.x,
    a.face.y,
    a.face.width,
    a.face.height,
    a.mouth.x,
    a.mouth.y,
    a.mouth.width,
    a.leftEye.x,
    a.leftEye.y,
    a.leftEye.width,
    a.leftEye.height,
    a.rightEye.x,
    a.rightEye.y,
    a.rightEye.width,
    a.rightEye.height,
    a.leftBrow.x,
    a.leftBrow.y,
    a.rightBrow.x,
    a.rightBrow.y,
  ];
  out.set(v);
  return out;
}

/** Anchors for the same drawing rendered `s` times larger. */
export function scaleAnchors(a: FaceAnchors, s: number): FaceAnchors {
  const p = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, (v as number) * s])) as T;
  return {
    face: p(a.face),
    mouth: p(a.mouth),
    leftEye: p(a.leftEye),
    rightEye: p(a.rightEye),
    leftBrow: p(a.leftBrow),
    rightBrow: p(a.rightBrow),
  };
}

function mean(pts: Point[]): Point {
  return { x: pts.reduce((s, p) => s + p.x, 0) / pts.length, y: pts.reduce((s, p) => s + p.y, 0) / pts.length };
}
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * Anchors from the common 68-point landmark layout (iBUG 300-W, as face-api's 68-point
 * model returns them), for faces found in uploaded photos.
 */
export function anchorsFrom68(pts: Point[]): FaceAnchors {
  if (pts.length !== 68) throw new Error(`expected 68 landmarks, got ${pts.length}`);
  const r = (i: number, j: number) => pts.slice(i, j + 1);
  const eye = (i: number) => {
    const ring = r(i, i + 5);
    const c = mean(ring);
    const width = dist(ring[0], ring[3]);
    const height = (dist(ring[1], ring[5]) + dist(ring[2], ring[4])) / 2;
    return { x: c.x, y: c.y, width, height: Math.max(height, width * 0.2) };
  };
  const chin = pts[8];
  const browMid = mean(r(17, 26));
  const jawWidth = dist(pts[1], pts[15]);
  // The hairline sits about a third of brow-to-chin above the brows.
  const top = browMid.y - (chin.y - browMid.y) * 0.35;
  const innerTop = mean([pts[62], pts[61], pts[63]]);
  const innerBottom = mean([pts[66], pts[65], pts[67]]);
  return {
    face: { x: (pts[1].x + pts[15].x) / 2, y: (top + chin.y) / 2, width: jawWidth, height: chin.y - top },
    mouth: { ...mean([innerTop, innerBottom]), width: dist(pts[48], pts[54]) },
    leftEye: eye(36),
    rightEye: eye(42),
    leftBrow: mean(r(17, 21)),
    rightBrow: mean(r(22, 26)),
  };
}

/** Prepares a face from an RGBA image already at the output size (its mouth palette included). */
export function prepareFace(rgba: Uint8Array, width: number, height: number, anchors: FaceAnchors): PreparedFace {
  const i420 = rgbaToI420(rgba, width, height);
  return { width, height, i420, anchors, palette: sampleMouthPalette(i420, width, height, anchors) };
}
