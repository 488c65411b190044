import { describe, expect, it } from "vitest";
import { FRAMINGS, parseFraming } from "./framing.ts";
import { FrameTransform, softenPadding, warpToFrame } from "./frame-warp.ts";

describe("parseFraming", () => {
  it("defaults to head and shoulders", () => {
    expect(parseFraming(undefined)).toEqual({ framing: FRAMINGS.head });
    expect(parseFraming("  ")).toEqual({ framing: FRAMINGS.head });
  });

  it("accepts the documented values, any case", () => {
    expect(parseFraming("face").framing.name).toBe("face");
    expect(parseFraming(" BUST ").framing.name).toBe("bust");
    expect(parseFraming("head").note).toBeUndefined();
  });

  it("falls back to head and says so for anything else", () => {
    const r = parseFraming("full-body");
    expect(r.framing.name).toBe("head");
    expect(r.note).toMatch(/"full-body" is not one of head, face, bust/);
  });

  it("orders the framings from tight to wide", () => {
    expect(FRAMINGS.face.faceHeight).toBeGreaterThan(FRAMINGS.head.faceHeight);
    expect(FRAMINGS.head.faceHeight).toBeGreaterThan(FRAMINGS.bust.faceHeight);
  });
});

describe("FrameTransform", () => {
  const t = new FrameTransform({ x: 300, y: 200 }, 0.3, { x: 310, y: 190 }, { x: 128, y: 110 }, 0.8);

  it("maps photo to output and back", () => {
    for (const p of [
      { x: 0, y: 0 },
      { x: 512, y: 77 },
      { x: 300, y: 200 },
    ]) {
      const back = t.toPhoto(t.toOutput(p));
      expect(back.x).toBeCloseTo(p.x, 9);
      expect(back.y).toBeCloseTo(p.y, 9);
    }
  });

  it("levels a line tilted by the roll", () => {
    const a = t.toOutput({ x: 300, y: 200 });
    const b = t.toOutput({ x: 300 + 50 * Math.cos(0.3), y: 200 + 50 * Math.sin(0.3) });
    expect(b.y).toBeCloseTo(a.y, 9);
    expect(b.x - a.x).toBeCloseTo(50 * 0.8, 9);
  });
});

describe("warpToFrame", () => {
  // A 4x4 photo: left half black, right half white.
  const rgb = new Uint8Array(4 * 4 * 3);
  for (let y = 0; y < 4; y++) for (let x = 2; x < 4; x++) rgb.fill(255, (y * 4 + x) * 3, (y * 4 + x) * 3 + 3);
  const region = { left: 0, top: 0, width: 4, height: 4, rgb, rw: 4, rh: 4 };

  it("copies the photo when the transform is the identity", () => {
    const id = new FrameTransform({ x: 0, y: 0 }, 0, { x: 0, y: 0 }, { x: 0, y: 0 }, 1);
    const out = warpToFrame(region, id, 4);
    expect(out.paddedPixels).toBe(0);
    expect(Array.from(out.rgba.filter((_, i) => i % 4 === 0))).toEqual(Array.from(rgb.filter((_, i) => i % 3 === 0)));
  });

  it("marks and softens what lies past the photo", () => {
    const shifted = new FrameTransform({ x: 0, y: 0 }, 0, { x: 0, y: 0 }, { x: 2, y: 0 }, 1);
    const out = warpToFrame(region, shifted, 4);
    // Output columns 0 and 1 come from photo x -2..0: outside, edge colour (black).
    expect(out.paddedPixels).toBe(8);
    expect(out.outside[0]).toBeGreaterThan(out.outside[1]);
    expect(out.outside[2]).toBe(0);
    const grey = new Uint8Array(4 * 4 * 3).fill(100);
    softenPadding(out.rgba, grey, out.outside, 1);
    expect(out.rgba[0]).toBe(100); // 2 px outside: fully the blurred copy
    expect(out.rgba[2 * 4]).toBe(0); // inside: untouched
  });
});
