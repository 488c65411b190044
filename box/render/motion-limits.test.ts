// A face's motion limits (motion-limits.ts): the lips, head and brows scale by the face's own
// fractions, zero stays zero, blinks and breathing are never limited, and no limits is no change.
import { describe, expect, it } from "vitest";
import { NEUTRAL_FRAME, type FrameParams } from "./frame-params.ts";
import { limitMotion } from "./motion-limits.ts";

const TALKING: FrameParams = {
  open: 0.8,
  wide: 0.5,
  round: 0.4,
  smile: -0.6,
  blink: 1,
  brow: 0.9,
  headX: 6,
  headY: -4,
  headRoll: 0.05,
  breathe: 0.7,
};

describe("limitMotion", () => {
  it("scales the mouth, head and brows by the face's fractions and leaves blinks and breathing whole", () => {
    const p = limitMotion(TALKING, { mouth: 0.5, head: 0.25, brows: 0 });
    expect(p).toEqual({
      open: 0.4,
      wide: 0.25,
      round: 0.2,
      smile: -0.3,
      blink: 1,
      brow: 0,
      headX: 1.5,
      headY: -1,
      headRoll: 0.0125,
      breathe: 0.7,
    });
  });

  it("changes nothing without limits, with full ones, or at rest", () => {
    expect(limitMotion(TALKING, undefined)).toBe(TALKING);
    expect(limitMotion(TALKING, { mouth: 1, head: 1, brows: 1 })).toBe(TALKING);
    expect(limitMotion(NEUTRAL_FRAME, { mouth: 0.3, head: 0.3, brows: 0.3 })).toEqual(NEUTRAL_FRAME);
  });

  it("reads a stored face's odd values safely: out of range clamped, missing or not a number as no limit", () => {
    const odd = { mouth: 2, head: -1, brows: Number.NaN };
    const p = limitMotion(TALKING, odd);
    expect([p.open, p.headX, p.brow]).toEqual([0.8, 0, 0.9]);
  });
});
