// The picture's own mouth inside the opening (issue 25 item 2): where the photo was taken with
// the lips apart, the opening shows the photo's own interior (its teeth, its shadow) instead of
// a painted one. The upper part of the picture's opening stays with the upper lip (upper teeth
// with the head), the lower part with the lower lip (lower teeth with the jaw); what lies
// between them once the mouth opens wider than the picture is left to the painted cavity
// (cavity.ts), and a narrower opening skips the picture's middle (the lips cover it).
import { attrI, attrS, type Maths, type V } from "./graph-builder.ts";
import type { AnchorS, HeadS } from "./scalars.ts";

/** Where the picture's mouth is and how the head has moved it (scalars). */
export interface PhotoMouthPose {
  /** The picture's own seam centre (resting anchors), px. */
  bx: V;
  by: V;
  /** cos and sin of the head's roll. */
  c: V;
  s: V;
  /** The picture's half mouth width over the rendered one: undoes `wide`, `round`, `smile`. */
  unstretch: V;
  /** Image width and height, px (GridSample's normalised coordinates). */
  wf: V;
  hf: V;
}

export function photoMouthPose(m: Maths, base: AnchorS, head: HeadS, halfWidth: V, wf: V, hf: V): PhotoMouthPose {
  return { bx: base.mx, by: base.my, c: head.c, s: head.s, unstretch: m.div(m.mul(base.mW, 0.5), halfWidth), wf, hf };
}

export interface PhotoMouthInput {
  /** The unwarped plane as float [1, C, H, W]. */
  source: V;
  /** [hc, wc]: rows below the rendered upper lip's inner edge. */
  d: V;
  /** [1, wc] columns: the rendered opening's height, the picture's taken upper edge and opening height, px from the mouth centre. */
  gap: V;
  picTop: V;
  picSpan: V;
  dx: V;
  /** Feather, luma px. */
  soft: number;
}

/**
 * The picture's interior resampled into the rendered opening ([1, C, hc, wc]) and how much of
 * it to show there (0..1, [hc, wc]; 0 for a picture with its lips together).
 */
export function photoMouth(m: Maths, pose: PhotoMouthPose, i: PhotoMouthInput): { sample: V; weight: V } {
  const g = m.g;
  // Upper half of the rendered opening: the picture's rows from its upper lip down; lower
  // half: from its lower lip up. A hard switch at the middle (a blend would sample between).
  const lowerHalf = m.cast(g.op("GreaterOrEqual", [i.d, m.mul(i.gap, 0.5)]), "float");
  const localY = m.add(m.add(i.picTop, i.d), m.mul(lowerHalf, m.sub(i.picSpan, i.gap)));
  const localX = m.mul(i.dx, pose.unstretch);
  // Back into the picture: the head's roll undone about the mouth (the head is rigid there).
  const sx = m.add(pose.bx, m.add(m.mul(pose.c, localX), m.mul(pose.s, localY)));
  const sy = m.add(pose.by, m.sub(m.mul(pose.c, localY), m.mul(pose.s, localX)));
  const norm = (v: V, size: V) => m.unsqueeze(m.sub(m.div(m.mul(v, 2), size), 1), [2]);
  const grid = m.unsqueeze(m.concat([norm(sx, pose.wf), norm(sy, pose.hf)], 2), [0]);
  const sample = g.op(
    "GridSample",
    [i.source, grid],
    [attrS("mode", "bilinear"), attrS("padding_mode", "border"), attrI("align_corners", 0)],
  );
  // Shown up to the middle of the picture's opening from either lip, fading over a feather
  // that grows with the opening (the picture's middle is often the teeth's dark meeting line).
  const fromLip = m.min(i.d, m.sub(i.gap, i.d));
  const f = m.fma(i.picSpan, 0.22, i.soft);
  const reach = m.clamp01(m.add(m.div(m.sub(m.mul(i.picSpan, 0.5), fromLip), f), 0.5));
  // Nothing for a picture with its lips together (a sliver under 1 px counts as closed).
  const weight = m.mul(reach, m.clamp01(m.sub(i.picSpan, 1)));
  return { sample, weight };
}
