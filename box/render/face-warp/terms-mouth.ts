// Mouth and jaw: the lower lip and chin drop, the upper lip lifts a little, the corners move
// out (wide, smile), in (round), up (smile) or down (frown). The lips part with a step at the
// seam; what the step leaves between the lips is painted over by the mouth interior (cavity.ts).
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
}

export const MOUTH = {
  /** Lower-lip drop at open = 1, in mouth widths. */
  drop: 0.4,
  /** Upper-lip lift at open = 1, in mouth widths. */
  lift: 0.08,
  /** Corner lift at smile = 1, in mouth widths. */
  smileLift: 0.16,
  /** The corner lift fades out between these distances from the centre, in half widths. */
  cornerFade: [2.2, 3.2],
  /** The jaw and the corners' sideways stretch fade out between these, in face heights below the chin. */
  neck: [-0.02, 0.22],
} as const;

export function mouthTerms(m: Maths, k: Coords, a: AnchorS, p: ParamS): { terms: Term[]; shape: MouthShape } {
  const { mW, mx, my } = a;
  const drop = m.mul(m.mul(p.open, mW), MOUTH.drop);
  const lift = m.mul(m.mul(p.open, mW), MOUTH.lift);
  // Relative horizontal stretch of the mouth.
  const kx = m.sub(m.add(m.mul(p.wide, 0.14), m.mul(m.relu(p.smile), 0.07)), m.mul(p.round, 0.25));
  const halfWidth = m.mul(m.mul(mW, 0.5), m.add(1, kx));
  const dx = m.sub(k.xs, mx);
  const u = m.div(dx, halfWidth);
  const uu = m.mul(u, u);
  // Opening per column: lens-shaped, rounder with `round`.
  const lens = m.pow(m.relu(m.sub(1, uu)), m.sub(0.8, m.mul(p.round, 0.35)));
  // Corner profile: 0 at the centre, 1 at the corners, fading beyond them (to nothing on the
  // cheeks, so the face's crop box stays small: crop-box.ts).
  const t2 = m.mul(uu, 1 / 1.69);
  const t4 = m.mul(t2, t2);
  const cheekFade = m.sub(1, m.smoothstep(MOUTH.cornerFade[0], MOUTH.cornerFade[1], m.abs(u)));
  const corner = m.mul(m.div(uu, m.add(1, m.mul(t4, t4))), cheekFade);

  const r = m.sub(k.ys, my);
  const step = m.sigmoid(m.mul(r, 2));
  const above = m.smoothstep(m.mul(mW, -0.55), m.mul(mW, -0.04), r);
  // The whole lower lip follows the lens; below it the jaw takes over.
  const jawBlend = m.smoothstep(m.mul(mW, 0.22), m.mul(mW, 0.95), r);
  // The chin slides over the neck; the neck and shoulders below stay.
  const neck = m.sub(1, m.smoothstep(m.fma(a.fH, MOUTH.neck[0], a.chin), m.fma(a.fH, MOUTH.neck[1], a.chin), k.ys));
  const jawCols = m.sub(1, m.smoothstep(m.mul(a.fW, 0.26), m.mul(a.fW, 0.52), m.abs(dx)));

  const smileAmp = m.mul(m.mul(p.smile, mW), MOUTH.smileLift);
  const across = m.gauss(r, m.mul(drop, 0.5), m.fma(mW, 0.45, m.mul(drop, 0.5)));
  const sideFade = m.sub(1, m.smoothstep(1.0, 1.9, m.abs(u)));

  const terms: Term[] = [
    // Upper lip and the skin up to the nose lift.
    { row: m.mul(m.sub(1, step), above), colY: m.mul(lens, lift) },
    // Lower lip drops with the opening's lens shape...
    { row: m.mul(step, m.sub(1, jawBlend)), colY: m.mul(lens, m.neg(drop)) },
    // ...and the chin below it drops with the whole jaw.
    { row: m.mul(m.mul(step, jawBlend), neck), colY: m.mul(jawCols, m.neg(drop)) },
    // Corners out/in: the backward map of a uniform stretch about the mouth centre (not
    // reaching the neck).
    { row: m.mul(across, neck), colX: m.mul(m.mul(dx, sideFade), m.neg(m.div(kx, m.add(1, kx)))) },
    // Corners up (smile) or down (frown).
    { row: m.gauss(r, 0, m.mul(mW, 0.42)), colY: m.mul(corner, smileAmp) },
  ];
  const seam = m.neg(m.mul(corner, smileAmp));
  const lensGap = m.mul(lens, m.add(drop, lift));
  return {
    terms,
    shape: { halfWidth, u, lo: m.sub(seam, m.mul(lens, lift)), gap: lensGap },
  };
}
