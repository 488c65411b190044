// Implements: a face's motion limits (issue 25 "Bad input", box/render/README.md "Hard photos"):
// photo preparation lowers how far the renderer moves a face it found hard (a moustache over
// the lips, a hand at a corner, glasses, side light, a turned or tiny face) and the renderer
// scales each frame's parameters by them, so such faces move less instead of tearing.
import type { FrameParams } from "./frame-params.ts";

/** Fractions (0..1) of each motion the face takes; 1 everywhere is a face without limits. */
export interface MotionLimits {
  /** The lips and jaw: `open`, `wide`, `round`, `smile`. */
  mouth: number;
  /** The head: `headX`, `headY`, `headRoll`. */
  head: number;
  /** The brows: `brow`. */
  brows: number;
}

const fraction = (v: number | undefined) => (typeof v === "number" && Number.isFinite(v) ? Math.max(0, Math.min(1, v)) : 1);

/**
 * `params` with the face's limits applied, or `params` itself when it has none. Zero stays zero,
 * so a rest frame (and a picture's open mouth closed at rest) is unchanged; blinks and breathing
 * are never limited (they move little and look wrong half done).
 */
export function limitMotion(params: FrameParams, limits: MotionLimits | undefined): FrameParams {
  if (!limits) return params;
  const mouth = fraction(limits.mouth),
    head = fraction(limits.head),
    brows = fraction(limits.brows);
  if (mouth === 1 && head === 1 && brows === 1) return params;
  return {
    ...params,
    open: params.open * mouth,
    wide: params.wide * mouth,
    round: params.round * mouth,
    smile: params.smile * mouth,
    headX: params.headX * head,
    headY: params.headY * head,
    headRoll: params.headRoll * head,
    brow: params.brow * brows,
  };
}
