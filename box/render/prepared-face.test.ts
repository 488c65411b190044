import { describe, expect, it } from "vitest";
import { ANCHOR_LAYOUT } from "./face-warp/io.ts";
import { ANCHOR_COUNT, anchorsFrom68, anchorsToVector, scaleAnchors, type FaceAnchors, type Point } from "./prepared-face.ts";

const ANCHORS: FaceAnchors = {
  face: { x: 256, y: 240, width: 220, height: 280 },
  mouth: { x: 256, y: 318, width: 74 },
  leftEye: { x: 206, y: 218, width: 52, height: 25 },
  rightEye: { x: 306, y: 218, width: 52, height: 25 },
  leftBrow: { x: 206, y: 186 },
  rightBrow: { x: 306, y: 186 },
};

/** A symmetric face in the iBUG 68-point layout. */
function landmarks68(): Point[] {
  const p: Point[] = new Array(68);
  for (let i = 0; i <= 16; i++) {
    const a = Math.PI * (i / 16);
    p[i] = { x: 256 - 110 * Math.cos(a), y: 230 + 150 * Math.sin(a) };
  }
  for (let i = 0; i < 5; i++) {
    p[17 + i] = { x: 180 + i * 12, y: 186 };
    p[26 - i] = { x: 332 - i * 12, y: 186 };
  }
  for (let i = 27; i <= 35; i++) p[i] = { x: 256, y: 230 + (i - 27) * 6 };
  const eye = (o: number, cx: number, outerLeft: boolean) => {
    const s = outerLeft ? -1 : 1;
    p[o] = { x: cx + s * 26, y: 218 };
    p[o + 1] = { x: cx + s * 9, y: 206 };
    p[o + 2] = { x: cx - s * 9, y: 206 };
    p[o + 3] = { x: cx - s * 26, y: 218 };
    p[o + 4] = { x: cx - s * 9, y: 230 };
    p[o + 5] = { x: cx + s * 9, y: 230 };
  };
  eye(36, 206, true);
  eye(42, 306, false);
  for (let i = 48; i <= 59; i++) p[i] = { x: 256, y: 318 };
  p[48] = { x: 219, y: 318 };
  p[54] = { x: 293, y: 318 };
  for (const i of [61, 62, 63]) p[i] = { x: 250 + (i - 61) * 6, y: 314 };
  for (const i of [65, 66, 67]) p[i] = { x: 262 - (i - 65) * 6, y: 322 };
  p[60] = { x: 221, y: 318 };
  p[64] = { x: 291, y: 318 };
  return p;
}

describe("prepared face anchors", () => {
  it("pack into the model's anchors vector in the documented order", () => {
    const v = anchorsToVector(ANCHORS);
    expect(v.length).toBe(ANCHOR_COUNT);
    expect(ANCHOR_LAYOUT.length).toBe(ANCHOR_COUNT);
    ANCHOR_LAYOUT.forEach((name, i) => {
      const [part, field] = name.split(".") as [keyof FaceAnchors, string];
      expect(v[i]).toBeCloseTo((ANCHORS[part] as unknown as Record<string, number>)[field], 4);
    });
  });

  it("scale with the image", () => {
    const half = scaleAnchors(ANCHORS, 0.5);
    expect(half.mouth).toEqual({ x: 128, y: 159, width: 37 });
    expect(half.leftEye.height).toBe(12.5);
  });

  it("come from 68-point landmarks", () => {
    const a = anchorsFrom68(landmarks68());
    expect(a.mouth.x).toBeCloseTo(256, 5);
    expect(a.mouth.y).toBeCloseTo(318, 5);
    expect(a.mouth.width).toBeCloseTo(74, 5);
    expect(a.leftEye).toMatchObject({ x: 206, y: 218, width: 52, height: 24 });
    expect(a.rightEye.x).toBeCloseTo(306, 5);
    expect(a.leftBrow).toEqual({ x: 204, y: 186 });
    expect(a.face.x).toBeCloseTo(256, 5);
    expect(a.face.y + a.face.height / 2).toBeCloseTo(380, 5);
    expect(() => anchorsFrom68(landmarks68().slice(0, 60))).toThrow(/68/);
  });
});
