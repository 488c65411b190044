// A made-up 478-point face mesh for tests of the video track (no model run): the points that
// box/faces/mesh-anchors.ts reads sit where a frontal face has them, every other point on an
// oval around the face, so fits over all points behave like on a real mesh.
import type { Point } from "../../render/prepared-face.ts";
import { MESH } from "../mesh-anchors.ts";

export interface MeshPose {
  /** Middle of the face (halfway forehead top to chin). */
  x: number;
  y: number;
  /** Forehead top to chin. */
  height: number;
  /** Lips apart, as a fraction of the mouth's width. */
  gap?: number;
  /** Clockwise on screen, radians. */
  roll?: number;
}

export function syntheticMesh(p: MeshPose): Point[] {
  const h = p.height;
  const pts: Point[] = Array.from({ length: 478 }, (_, i) => {
    const a = (i / 478) * Math.PI * 2 * 7;
    const r = 0.15 + (0.3 * ((i * 37) % 100)) / 100;
    return { x: Math.cos(a) * r * 0.8, y: Math.sin(a) * r };
  });
  const set = (i: number, x: number, y: number) => (pts[i] = { x, y });
  set(MESH.foreheadTop, 0, -0.5);
  set(MESH.chin, 0, 0.5);
  set(MESH.cheeks[0], -0.38, 0);
  set(MESH.cheeks[1], 0.38, 0);
  set(MESH.noseTip, 0, 0.05);
  const mouthY = 0.25;
  const mw = 0.36;
  const gap = (p.gap ?? 0) * mw;
  MESH.upperInner.forEach((i, k) => set(i, -mw / 2 + (k / 10) * mw, mouthY - (k > 0 && k < 10 ? gap / 2 : 0)));
  MESH.lowerInner.forEach((i, k) => set(i, -mw / 2 + (k / 10) * mw, mouthY + (k > 0 && k < 10 ? gap / 2 : 0)));
  MESH.upperOuter.forEach((i, k) => set(i, -mw / 2 + (k / 10) * mw, mouthY - 0.03 - gap / 2));
  MESH.lowerOuter.forEach((i, k) => set(i, -mw / 2 + (k / 10) * mw, mouthY + 0.04 + gap / 2));
  set(MESH.mouthCorners[0], -mw / 2, mouthY);
  set(MESH.mouthCorners[1], mw / 2, mouthY);
  for (const [eye, side] of [
    [MESH.rightEye, -1],
    [MESH.leftEye, 1],
  ] as const) {
    const cx = side * 0.17;
    set(eye.outer, cx + side * 0.08, -0.08);
    set(eye.inner, cx - side * 0.08, -0.08);
    eye.upper.forEach((i, k) => set(i, cx + (k - 1) * 0.04, -0.1));
    eye.lower.forEach((i, k) => set(i, cx + (k - 1) * 0.04, -0.06));
  }
  for (const [brow, side] of [
    [MESH.rightBrow, -1],
    [MESH.leftBrow, 1],
  ] as const)
    brow.forEach((i, k) => set(i, side * (0.05 + (k % 5) * 0.05), -0.2 - (k < 5 ? 0.02 : 0)));
  const c = Math.cos(p.roll ?? 0);
  const s = Math.sin(p.roll ?? 0);
  return pts.map((q) => ({ x: p.x + h * (c * q.x - s * q.y), y: p.y + h * (s * q.x + c * q.y) }));
}
