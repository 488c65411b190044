// Implements: mapping MediaPipe's 468-point face mesh to the renderer's anchors
// (box/render/README.md "anchors layout"; box/render/prepared-face.ts `FaceAnchors`).
// Indices are MediaPipe FaceMesh's canonical ones ("left"/"right" below are the person's, so
// the person's right eye is on the image's left in an unmirrored photo).
import type { FaceAnchors, Point } from "../render/prepared-face.ts";

export const MESH = {
  /** Lip corners where the outer contours meet (person's right, left). */
  mouthCorners: [61, 291],
  /** Inner edge of the upper lip, corner to corner (the seam when the mouth is closed). */
  upperInner: [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308],
  /** Inner edge of the lower lip, corner to corner. */
  lowerInner: [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308],
  /** The middles of the inner lips (upper, lower): where those two contours cross the face's midline. */
  innerLipMiddles: [13, 14],
  /** Outer edges of the lips. */
  upperOuter: [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291],
  lowerOuter: [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291],
  /** Eye rings: outer corner, inner corner, three upper-lid and three lower-lid points. */
  rightEye: { outer: 33, inner: 133, upper: [160, 159, 158], lower: [144, 145, 153] },
  leftEye: { outer: 263, inner: 362, upper: [387, 386, 385], lower: [373, 374, 380] },
  /** Brows: upper and lower edge, outer to inner. */
  rightBrow: [70, 63, 105, 66, 107, 46, 53, 52, 65, 55],
  leftBrow: [300, 293, 334, 296, 336, 276, 283, 282, 295, 285],
  /** Face oval, clockwise from the top of the forehead. */
  oval: [
    10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93,
    234, 127, 162, 21, 54, 103, 67, 109,
  ],
  /** Widest points of the oval at the cheekbones / ears (person's right, left). */
  cheeks: [234, 454],
  chin: 152,
  foreheadTop: 10,
  noseTip: 1,
  /**
   * Iris centres when the mesh has 478 points (person's right, left). Human appends the
   * person's left iris (468-472) before the right one (473-477), the reverse of MediaPipe's own
   * refined mesh; checked on the test photos.
   */
  irises: [473, 468],
} as const;

const mean = (pts: Point[]): Point => ({
  x: pts.reduce((s, p) => s + p.x, 0) / pts.length,
  y: pts.reduce((s, p) => s + p.y, 0) / pts.length,
});
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Roll of the face: the angle of the line from the person's right eye to the left one (radians, clockwise on screen). */
export function meshRoll(mesh: Point[]): number {
  const r = mesh[MESH.rightEye.outer];
  const l = mesh[MESH.leftEye.outer];
  return Math.atan2(l.y - r.y, l.x - r.x);
}

/**
 * Yaw estimate: how far the nose tip sits from the middle of the cheeks, in half face widths
 * (0 = facing the camera; the nose stands out, so this grows fast: about 0.7 for a head turned
 * some 20 degrees and past 0.9 from about 30 degrees on the demo photos; unbounded near profile).
 */
export function meshYaw(mesh: Point[]): number {
  const [r, l] = MESH.cheeks.map((i) => mesh[i]);
  const half = dist(r, l) / 2;
  const mid = mean([r, l]);
  const axis = { x: (l.x - r.x) / (2 * half), y: (l.y - r.y) / (2 * half) };
  const nose = mesh[MESH.noseTip];
  return ((nose.x - mid.x) * axis.x + (nose.y - mid.y) * axis.y) / half;
}

/** The hairline sits above the mesh's top (mid-forehead) by this fraction of forehead-top-to-chin. */
export const HAIRLINE_ABOVE_MESH = 0.06;

/**
 * Renderer anchors from a MediaPipe face mesh (468 or 478 points) of an upright face (level
 * eyes: rotate the mesh first when the head is tilted; the renderer's fields are axis-aligned).
 */
export function anchorsFromMesh(mesh: Point[]): FaceAnchors {
  if (mesh.length !== 468 && mesh.length !== 478) throw new Error(`expected 468 or 478 mesh points, got ${mesh.length}`);
  const at = (i: number) => mesh[i];
  const pts = (ids: readonly number[]) => ids.map(at);

  // Mouth: the seam is the upper lip's inner edge over the middle of the mouth (the lips' inner
  // edges coincide when the mouth is closed). When the photo shows teeth, the renderer opens the
  // lips just under the upper lip, paints its upper teeth there, and the photo's own teeth move
  // down with the lower lip and read as the lower row; a seam lower in the gap would stack the
  // painted teeth under the real ones (seen on the contact sheets).
  const mid = [3, 4, 5, 6, 7];
  const upper = mean(mid.map((k) => at(MESH.upperInner[k])));
  const lower = mean(mid.map((k) => at(MESH.lowerInner[k])));
  const [cr, cl] = MESH.mouthCorners.map(at);
  const width = dist(cr, cl);
  // A little inside the gap, so the upper lip's edge stays whole with the upper lip.
  const seamY = upper.y + Math.min(Math.max(0, lower.y - upper.y) / 2, width * 0.015);
  const mouth = { x: (cr.x + cl.x) / 2, y: seamY, width };

  const eye = (e: { outer: number; inner: number; upper: readonly number[]; lower: readonly number[] }) => {
    const o = at(e.outer);
    const n = at(e.inner);
    const up = pts(e.upper);
    const lo = pts(e.lower);
    const width = dist(o, n);
    const height = up.reduce((s, p, k) => s + dist(p, lo[k]), 0) / up.length;
    const c = mean([mean([o, n]), mean(up), mean(lo)]);
    // A blinking or squinting photo still needs a lid to slide: keep at least a sliver.
    return { x: c.x, y: c.y, width, height: Math.max(height, width * 0.2) };
  };

  const chin = at(MESH.chin);
  const [cheekR, cheekL] = MESH.cheeks.map(at);
  const top = at(MESH.foreheadTop);
  // The mesh stops at the upper forehead; the renderer's face height runs hairline to chin.
  const hairline = top.y - (chin.y - top.y) * HAIRLINE_ABOVE_MESH;
  const brows = { right: mean(pts(MESH.rightBrow)), left: mean(pts(MESH.leftBrow)) };

  const rightEye = eye(MESH.rightEye);
  const leftEye = eye(MESH.leftEye);
  // Image left/right: whichever of the person's eyes lies further left in the picture.
  const mirrored = rightEye.x > leftEye.x;
  return {
    face: { x: (cheekR.x + cheekL.x) / 2, y: (hairline + chin.y) / 2, width: dist(cheekR, cheekL), height: chin.y - hairline },
    mouth,
    leftEye: mirrored ? leftEye : rightEye,
    rightEye: mirrored ? rightEye : leftEye,
    leftBrow: mirrored ? brows.left : brows.right,
    rightBrow: mirrored ? brows.right : brows.left,
  };
}
