// Implements: the renderer's crop mode (box/render/README.md "Crop mode"): the face warp runs on
// the box around the head only; the rest of the frame is the face image itself, with breathing
// (the one motion that reaches past the box: rows below the chin lift) applied here. Pure
// functions over I420 buffers; FaceRenderer owns the session and the cache.
import type { FrameParams } from "./frame-params.ts";
import { warpCropBoxes, type Box, type CropEnvelope } from "./face-warp/crop-box.ts";
import { BREATHE } from "./face-warp/terms-face.ts";
import { i420Size } from "./i420.ts";
import type { FaceAnchors, PreparedFace } from "./prepared-face.ts";

export type { Box, CropEnvelope } from "./face-warp/crop-box.ts";

export interface CropPlan {
  /** What the model runs on. */
  crop: Box;
  /** The part of the model's output copied into the frame. */
  paste: Box;
  /** The face's I420 inside `crop` (its own Y, U, V planes). */
  i420: Uint8Array;
  /** The face's anchors relative to the crop's corner. */
  anchors: FaceAnchors;
}

/** Skip the crop when it would cover more of the frame than this (the copying costs more than it saves). */
const MAX_CROP_SHARE = 0.92;

/** The crop for a face, or undefined when the face fills the frame. Computed once per face. */
export function planCrop(face: PreparedFace, env?: CropEnvelope): CropPlan | undefined {
  const { crop, paste } = warpCropBoxes(face.anchors, face.width, face.height, env);
  const w = crop.x1 - crop.x0;
  const h = crop.y1 - crop.y0;
  if (w <= 0 || h <= 0 || w * h > MAX_CROP_SHARE * face.width * face.height) return undefined;
  return {
    crop,
    paste,
    i420: cropI420(face.i420, face.width, face.height, crop),
    anchors: shiftAnchors(face.anchors, -crop.x0, -crop.y0),
  };
}

/** True when the head motion of `p` stays inside the envelope the crop was made for. */
export function withinEnvelope(p: FrameParams, env: CropEnvelope): boolean {
  const ok = (v: number, max: number) => !(Math.abs(v) > max); // NaN renders as 0 (paramsToVector)
  return ok(p.headX, env.shift) && ok(p.headY, env.shift) && ok(p.headRoll, env.roll);
}

/** The I420 planes of `box` (even edges) cut out of a width x height I420 image. */
export function cropI420(src: Uint8Array, width: number, height: number, box: Box): Uint8Array {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const dst = new Uint8Array(i420Size(w, h));
  copyRect(src, 0, width, dst, 0, w, box.x0, box.y0, w, h, 0, 0);
  const [cw, ch, dcw, dch] = [width / 2, height / 2, w / 2, h / 2];
  for (const k of [0, 1]) {
    copyRect(src, width * height + k * cw * ch, cw, dst, w * h + k * dcw * dch, dcw, box.x0 / 2, box.y0 / 2, dcw, dch, 0, 0);
  }
  return dst;
}

/** Copies a w x h rectangle from (sx, sy) of one plane to (dx, dy) of another. */
function copyRect(
  src: Uint8Array,
  srcOff: number,
  srcStride: number,
  dst: Uint8Array,
  dstOff: number,
  dstStride: number,
  sx: number,
  sy: number,
  w: number,
  h: number,
  dx: number,
  dy: number,
): void {
  for (let r = 0; r < h; r++) {
    const s = srcOff + (sy + r) * srcStride + sx;
    dst.set(src.subarray(s, s + w), dstOff + (dy + r) * dstStride + dx);
  }
}

/** The same anchors in a frame whose origin moved by (dx, dy). */
export function shiftAnchors(a: FaceAnchors, dx: number, dy: number): FaceAnchors {
  const p = <T extends { x: number; y: number }>(o: T): T => ({ ...o, x: o.x + dx, y: o.y + dy });
  return {
    face: p(a.face),
    mouth: p(a.mouth),
    leftEye: p(a.leftEye),
    rightEye: p(a.rightEye),
    leftBrow: p(a.leftBrow),
    rightBrow: p(a.rightBrow),
  };
}

/**
 * Writes the whole frame into `out`: the face image, breathing applied to the rows below the
 * chin outside the paste box, and the model's output (`rendered`, the crop's I420) inside it.
 * Every byte of `out` is written, so a reused buffer needs no history.
 */
export function composeFrame(face: PreparedFace, plan: CropPlan, breathe: number, rendered: Uint8Array, out: Uint8Array): void {
  const { width: W, height: H } = face;
  out.set(face.i420.subarray(0, out.length));
  const b = Number.isFinite(breathe) ? Math.min(1, Math.max(-1, breathe)) : 0;
  const { paste, crop } = plan;
  const cw = crop.x1 - crop.x0;
  const ch = crop.y1 - crop.y0;
  const planes = [
    { off: 0, w: W, h: H, step: 1, cOff: 0, cw, cx: crop.x0, cy: crop.y0, p: paste },
    ...[0, 1].map((k) => ({
      off: W * H + (k * W * H) / 4,
      w: W / 2,
      h: H / 2,
      step: 2,
      cOff: cw * ch + (k * cw * ch) / 4,
      cw: cw / 2,
      cx: crop.x0 / 2,
      cy: crop.y0 / 2,
      p: { x0: paste.x0 / 2, x1: paste.x1 / 2, y0: paste.y0 / 2, y1: paste.y1 / 2 },
    })),
  ];
  for (const pl of planes) {
    if (b !== 0) breatheOutside(face, b, pl.off, pl.w, pl.h, pl.step, pl.p, out);
    copyRect(
      rendered,
      pl.cOff,
      pl.cw,
      out,
      pl.off,
      pl.w,
      pl.p.x0 - pl.cx,
      pl.p.y0 - pl.cy,
      pl.p.x1 - pl.p.x0,
      pl.p.y1 - pl.p.y0,
      pl.p.x0,
      pl.p.y0,
    );
  }
}

/**
 * The breathing term of the built-in warp (terms-face.ts breatheTerm) on one plane, outside
 * the paste box: rows below the chin sample from `lift` pixels lower, bilinear with the
 * border clamped, rounded as the model rounds, exactly as GridSample would place them.
 */
function breatheOutside(face: PreparedFace, b: number, off: number, w: number, h: number, step: number, p: Box, out: Uint8Array): void {
  const { y: fy, height: fH } = face.anchors.face;
  const chin = fy + fH / 2;
  const e0 = chin + fH * BREATHE.rows[0];
  const e1 = chin + fH * BREATHE.rows[1];
  const lift = b * fH * BREATHE.lift;
  const src = face.i420;
  const first = Math.max(0, Math.floor(e0 / step) - 1);
  for (let y = first; y < h; y++) {
    // Row centre in luma pixels (chroma row j sits at 2j + 1), and the source row it samples.
    const ys = step === 1 ? y + 0.5 : 2 * y + 1;
    const t = Math.min(1, Math.max(0, (ys - e0) / (e1 - e0)));
    const d = (lift * t * t * (3 - 2 * t)) / step;
    if (d === 0) continue;
    const sy = Math.min(h - 1, Math.max(0, y + d));
    const y0 = Math.floor(sy);
    const wt = sy - y0;
    const r0 = off + y0 * w;
    const r1 = off + Math.min(h - 1, y0 + 1) * w;
    const row = off + y * w;
    const inside = y >= p.y0 && y < p.y1;
    const segs = inside ? [0, p.x0, p.x1, w] : [0, w];
    for (let s = 0; s < segs.length; s += 2) {
      for (let x = segs[s]; x < segs[s + 1]; x++) {
        const a = src[r0 + x];
        out[row + x] = (a + (src[r1 + x] - a) * wt + 0.5) | 0;
      }
    }
  }
}
