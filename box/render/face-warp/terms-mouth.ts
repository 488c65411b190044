// Mouth and jaw: the lower lip drops, the jaw turns about the joints by the ears (the chin drops
// rigidly, less towards the jaw's angles), the upper lip lifts a little, the corners move out
// (wide, smile), in (round), up (smile) or down (frown). The lips part with a step at the seam;
// what the step leaves between the lips is filled by the mouth interior (cavity.ts: the
// picture's own opening where it has one, photo-mouth.ts, else painted in its colours).
import type { Maths, V } from "./graph-builder.ts";
import type { AnchorS, ParamS } from "./scalars.ts";
import type { Coords, Term } from "./terms-face.ts";

/** Column vectors describing the opening in output space, used by the cavity painter. */
export interface MouthShape {
  /** Half width after stretching: the corners sit at mx ± halfWidth. */
  halfWidth: V;
  /** Column coordinate, -1 .. 1 between the corners. */
  u: V;
  /** Upper lip's inner edge relative to the seam row (px, negative is up). */
  lo: V;
  /** Height of the opening per column (px). */
  gap: V;
  /** Per column: where the picture's upper lip edge is taken from, px relative to the seam (<= 0). */
  picTop: V;
  /** Per column: the height of the picture's own opening between the two lips' taken edges (px; 0 for closed lips). */
  picSpan: V;
}

export const MOUTH = {
  /** Lower-lip drop at open = 1, in mouth widths... */
  drop: 0.4,
  /** ...and never more than this, in face heights. */
  dropCap: 0.15,
  /** The chin drops this share of the lower lip's drop (the lip's own depressor adds the rest)... */
  jaw: 0.85,
  /** ...and never more than this, in face heights (a wide mouth on a short face). */
  jawCap: 0.12,
  /** Jaw rotation: the drop fades from the chin to nothing at the jaw's angles, face widths from the centre. */
  jawCols: [0.1, 0.46],
  /** The lower lip hands over to the rigid jaw between these distances below the seam, mouth widths. */
  jawBlend: [0.18, 0.6],
  /**
   * Below the dropped chin the top of the neck is squeezed under it within a band as tall as
   * the drop, kept within these face heights (the jaw never reaches past 0.22 face heights).
   */
  fold: [0.04, 0.1],
  /** The most of a picture's own opening that is closed at rest, in mouth widths (a yawn stays open). */
  restGapMax: 0.3,
  /** Closing a picture's opening moves the lower lip this much further, in mouth widths (at most the opening)... */
  restGapSpare: 0.035,
  /** ...and the upper lip this share of the opening down (the seam sits just under the upper lip)... */
  restGapAbove: 0.06,
  /** ...while the jaw rises this share of what it would for the same opening (the lower lip does the rest). */
  restJaw: 0.6,
  /** Upper-lip lift at open = 1, in mouth widths. */
  lift: 0.08,
  /** Corner lift at smile = 1, in mouth widths. */
  smileLift: 0.16,
  /** The corner lift fades out between these distances from the centre, in half widths. */
  cornerFade: [2.2, 3.2],
  /** The corners' sideways stretch fades out between these, in face heights below the chin. */
  neck: [-0.02, 0.22],
} as const;

/**
 * `restGap`: how far below the seam the face's picture has its lower lip's inner edge at the
 * centre (px, 0 for lips together). The picture counts as that far open and `open` is measured
 * from closed lips: 0 closes them (the jaw rising a little), 1 opens them as far as any face.
 */
export function mouthTerms(m: Maths, k: Coords, a: AnchorS, p: ParamS, restGap: V): { terms: Term[]; shape: MouthShape } {
  const { mW, mx, my } = a;
  // Travel at open = 1 of the lower lip, the upper lip and the chin.
  const dropFull = m.min(m.mul(mW, MOUTH.drop), m.mul(a.fH, MOUTH.dropCap));
  const liftFull = m.mul(mW, MOUTH.lift);
  const jawFull = m.min(m.mul(dropFull, MOUTH.jaw), m.mul(a.fH, MOUTH.jawCap));
  // Where the picture has its lips' inner edges, below (lower lip) and above (upper lip) the
  // seam at the centre, with a little to spare so no sliver of its teeth stays on a lip; 0 for
  // a closed mouth. Closing moves the lips there, the jaw with the lower one.
  const gapPic = m.min(restGap, m.mul(mW, MOUTH.restGapMax));
  const spare = m.min(gapPic, m.mul(mW, MOUTH.restGapSpare));
  const picLower = m.add(gapPic, spare);
  const jawDrop = m.mul(m.sub(p.open, m.mul(m.div(picLower, dropFull), MOUTH.restJaw)), jawFull);
  // How far the lips' edges are taken in over the picture's opening: all the way at rest (the
  // upper lip a little down, the lower one up past the picture's teeth), not at all once the
  // opening is as tall as the picture's own, so an open mouth keeps both lips at their real
  // thickness (and shows the picture's own teeth between them: photo-mouth.ts).
  const shut = m.clamp01(m.sub(1, m.div(m.mul(p.open, m.add(dropFull, liftFull)), m.max(gapPic, 0.5))));
  const shutLower = m.fma(spare, shut, gapPic);
  const shutUpper = m.mul(m.fma(gapPic, MOUTH.restGapAbove, m.mul(spare, 0.5)), shut);
  // Relative horizontal stretch of the mouth.
  const kx = m.sub(m.add(m.mul(p.wide, 0.14), m.mul(m.relu(p.smile), 0.07)), m.mul(p.round, 0.25));
  const halfWidth = m.mul(m.mul(mW, 0.5), m.add(1, kx));
  const dx = m.sub(k.xs, mx);
  const u = m.div(dx, halfWidth);
  const uu = m.mul(u, u);
  // Opening per column: lens-shaped, rounder with `round`. A picture's own opening is boxier
  // (flat across the front teeth); closing it follows that shape.
  const lens = m.pow(m.relu(m.sub(1, uu)), m.sub(0.8, m.mul(p.round, 0.35)));
  const picLens = m.pow(m.relu(m.sub(1, m.mul(uu, uu))), 0.8);
  // Each lip's travel per column from where the picture has it: the opening's minus the picture's own.
  const liftOpen = m.mul(lens, m.mul(p.open, liftFull));
  const picTop = m.neg(m.mul(picLens, shutUpper));
  const picBottom = m.mul(picLens, shutLower);
  const lift = m.add(liftOpen, picTop);
  const drop = m.sub(m.mul(lens, m.mul(p.open, dropFull)), picBottom);
  // Corner profile: 0 at the centre, 1 at the corners, fading beyond them (to nothing on the
  // cheeks, so the face's crop box stays small: crop-box.ts).
  const t2 = m.mul(uu, 1 / 1.69);
  const t4 = m.mul(t2, t2);
  const cheekFade = m.sub(1, m.smoothstep(MOUTH.cornerFade[0], MOUTH.cornerFade[1], m.abs(u)));
  const corner = m.mul(m.div(uu, m.add(1, m.mul(t4, t4))), cheekFade);

  const r = m.sub(k.ys, my);
  // The lips part at the seam over about two rows; while closing a picture's open mouth the
  // seam is a hard edge, so no row in between shows its teeth.
  const closing = m.clamp01(m.div(picLower, m.fma(p.open, dropFull, 0.5)));
  const step = m.sigmoid(m.mul(r, m.fma(closing, 40, 2)));
  const above = m.smoothstep(m.mul(mW, -0.55), m.mul(mW, -0.04), r);
  // The whole lower lip follows the lens; below it the jaw takes over.
  const jawBlend = m.smoothstep(m.mul(mW, MOUTH.jawBlend[0]), m.mul(mW, MOUTH.jawBlend[1]), r);
  // The chin keeps its shape down to where it lands, then overlaps the top of the neck in a
  // short band; the neck and shoulders below stay.
  const landed = m.add(a.chin, jawDrop);
  // Linear, so the squeeze is even (at most 2.2x) and the map never folds back on itself; a
  // chin that rises (closing a picture's open mouth) stretches the band at most 2x instead.
  const band = m.max(m.clip(jawDrop, m.mul(a.fH, MOUTH.fold[0]), m.mul(a.fH, MOUTH.fold[1])), m.mul(m.relu(m.neg(jawDrop)), 2));
  const fold = m.clamp01(m.sub(1, m.div(m.sub(k.ys, landed), band)));
  const neck = m.sub(1, m.smoothstep(m.fma(a.fH, MOUTH.neck[0], a.chin), m.fma(a.fH, MOUTH.neck[1], a.chin), k.ys));
  // The jaw turns about the joints by the ears: the chin drops most, the jaw's angles hardly.
  const jawCols = m.sub(1, m.smoothstep(m.mul(a.fW, MOUTH.jawCols[0]), m.mul(a.fW, MOUTH.jawCols[1]), m.abs(dx)));

  const smileAmp = m.mul(m.mul(p.smile, mW), MOUTH.smileLift);
  const opened = m.mul(p.open, dropFull);
  const across = m.gauss(r, m.mul(opened, 0.5), m.fma(mW, 0.45, m.mul(opened, 0.5)));
  const sideFade = m.sub(1, m.smoothstep(1.0, 1.9, m.abs(u)));

  const terms: Term[] = [
    // Upper lip and the skin up to the nose lift.
    { row: m.mul(m.sub(1, step), above), colY: lift },
    // Lower lip drops with the opening's lens shape...
    { row: m.mul(step, m.sub(1, jawBlend)), colY: m.neg(drop) },
    // ...and the chin below it drops with the whole jaw.
    { row: m.mul(m.mul(step, jawBlend), fold), colY: m.mul(jawCols, m.neg(jawDrop)) },
    // Corners out/in: the backward map of a uniform stretch about the mouth centre (not
    // reaching the neck).
    { row: m.mul(across, neck), colX: m.mul(m.mul(dx, sideFade), m.neg(m.div(kx, m.add(1, kx)))) },
    // Corners up (smile) or down (frown).
    { row: m.gauss(r, 0, m.mul(mW, 0.42)), colY: m.mul(corner, smileAmp) },
  ];
  const seam = m.neg(m.mul(corner, smileAmp));
  // The lips' inner edges end up `open` of the full opening apart, wherever the picture had them.
  const lensGap = m.mul(lens, m.mul(p.open, m.add(dropFull, liftFull)));
  return {
    terms,
    shape: { halfWidth, u, lo: m.sub(seam, liftOpen), gap: lensGap, picTop, picSpan: m.sub(picBottom, picTop) },
  };
}
