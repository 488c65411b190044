// Displacement terms for head motion, breathing, blinks and eyebrows. Each term is separable:
// a row profile (function of y) times column profiles (functions of x) for the x and y
// components of the backward map (output pixel -> source pixel offset, in pixels).
import type { Maths, V } from "./graph-builder.ts";
import type { AnchorS, EyeS, HeadS, ParamS, PointS } from "./scalars.ts";

export interface Term {
  row: V;
  colX?: V;
  colY?: V;
}

/**
 * Where the head moves (base anchors; fractions of the face width from its centre, of the
 * face height below the chin): full weight inside the first edge, none past the second.
 * The renderer's crop (crop-box.ts) is derived from these.
 */
export const HEAD = {
  cols: [0.72, 0.92],
  neckCols: [0.24, 0.5],
  rows: [-0.04, 0.12],
  neckRows: [0.05, 0.22],
} as const;

/** Breathing: rows below the chin ramp in between these (x face height) and lift by `lift` x face height. */
export const BREATHE = { rows: [0.05, 0.6], lift: 0.012 } as const;

export interface Coords {
  /** Column sample centres (luma pixels): W luma columns then W/2 chroma columns. */
  xs: V;
  /** Row sample centres (luma pixels): H luma rows then H/2 chroma rows. */
  ys: V;
  onesX: V;
}

/**
 * Head shift and roll. The weight is 1 on the head (hair included), narrows to the neck below
 * the chin and is 0 on the shoulders and background: two separable zones summed.
 */
export function headTerms(m: Maths, k: Coords, a: AnchorS, h: HeadS): Term[] {
  const ax = m.abs(m.sub(k.xs, a.fx));
  const headCols = m.sub(1, m.smoothstep(m.mul(a.fW, HEAD.cols[0]), m.mul(a.fW, HEAD.cols[1]), ax));
  const neckCols = m.sub(1, m.smoothstep(m.mul(a.fW, HEAD.neckCols[0]), m.mul(a.fW, HEAD.neckCols[1]), ax));
  const headRows = m.sub(1, m.smoothstep(m.fma(a.fH, HEAD.rows[0], a.chin), m.fma(a.fH, HEAD.rows[1], a.chin), k.ys));
  const neckRows = m.mul(
    m.sub(1, headRows),
    m.sub(1, m.smoothstep(m.fma(a.fH, HEAD.neckRows[0], a.chin), m.fma(a.fH, HEAD.neckRows[1], a.chin), k.ys)),
  );
  const qx = m.sub(k.xs, h.px);
  const qy = m.sub(k.ys, h.py);
  const cm1 = m.sub(h.c, 1);
  // Backward map: (R(-roll) - I)(q) - R(-roll)(shift), weighted.
  const colX = m.sub(m.mul(cm1, qx), h.tx);
  const colY = m.sub(m.neg(m.mul(h.s, qx)), h.ty);
  return [headCols, neckCols].flatMap((wx, i) => {
    const wy = i === 0 ? headRows : neckRows;
    return [
      { row: wy, colX: m.mul(wx, colX), colY: m.mul(wx, colY) },
      { row: m.mul(wy, qy), colX: m.mul(wx, h.s), colY: m.mul(wx, cm1) },
    ];
  });
}

/** Breathing lifts the shoulders and chest (rows below the chin) by about 1% of face height. */
export function breatheTerm(m: Maths, k: Coords, a: AnchorS, p: ParamS): Term {
  const row = m.smoothstep(m.fma(a.fH, BREATHE.rows[0], a.chin), m.fma(a.fH, BREATHE.rows[1], a.chin), k.ys);
  return { row, colY: m.mul(k.onesX, m.mul(m.mul(p.breathe, a.fH), BREATHE.lift)) };
}

/**
 * A blink stretches the skin above the lid down over the eye and squeezes the eye itself
 * into the strip above the lower lid; the lash line travels down with the lid.
 */
export function blinkTerm(m: Maths, k: Coords, e: EyeS, p: ParamS): Term {
  const lid = m.fma(e.h, -0.5, e.y);
  const lower = m.fma(e.h, 0.5, e.y);
  const top = m.fma(e.h, -0.62, lid);
  const travel = m.mul(m.mul(p.blink, e.h), 0.94);
  const newLid = m.add(lid, travel);
  // Smooth at both ends: no crease where the stretch starts, and the lash line keeps its
  // thickness (slope 1 at the lid) while the skin between stretches.
  const rise = m.smoothstep(top, newLid, k.ys);
  const fall = m.clamp01(m.div(m.sub(lower, k.ys), m.max(m.sub(lower, newLid), 0.5)));
  const row = m.min(rise, fall);
  // Lid travel follows the eye's opening (full at the centre, little at the corners), so the
  // closed lid lies along the lower lid.
  const ue = m.div(m.sub(k.xs, e.x), m.mul(e.w, 0.58));
  const he = m.relu(m.sub(1, m.mul(ue, ue)));
  return { row, colY: m.mul(he, m.neg(travel)) };
}

/**
 * Smiling pushes the cheeks up: the lower lid rises a little (a "smiling eyes" squint); brows
 * drawn down (concentration, sternness) narrow the eyes the same way, a little less.
 */
export function squintTerm(m: Maths, k: Coords, e: EyeS, p: ParamS): Term {
  const lower = m.fma(e.h, 0.5, e.y);
  const into = m.smoothstep(m.fma(e.h, -0.4, lower), lower, k.ys);
  const below = m.sub(1, m.smoothstep(lower, m.fma(e.h, 1.8, lower), k.ys));
  const ue = m.div(m.sub(k.xs, e.x), m.mul(e.w, 0.75));
  const cols = m.relu(m.sub(1, m.mul(ue, ue)));
  const amount = m.add(m.mul(m.relu(p.smile), 0.3), m.mul(m.relu(m.neg(p.brow)), 0.22));
  return { row: m.mul(into, below), colY: m.mul(cols, m.mul(amount, e.h)) };
}

/**
 * Eyebrows: brow > 0 lifts the whole brow (a little more at the inner end, surprise/worry);
 * brow < 0 pulls mostly the inner end down (concentration, sternness).
 */
export function browTerm(m: Maths, k: Coords, b: PointS, e: EyeS, faceX: V, p: ParamS): Term {
  const lid = m.fma(e.h, -0.5, e.y);
  const up = m.smoothstep(m.fma(e.h, -2.4, b.y), m.fma(e.h, -0.3, b.y), k.ys);
  // Linear fade down to just above the lid, so even a full raise never folds the skin.
  const downStart = m.fma(e.h, 0.3, b.y);
  const downEnd = m.max(m.fma(e.h, -0.08, lid), m.fma(e.h, 0.6, b.y));
  const down = m.clamp01(m.div(m.sub(downEnd, k.ys), m.sub(downEnd, downStart)));
  const row = m.mul(up, down);
  const dx = m.sub(k.xs, b.x);
  const hb = m.sub(1, m.smoothstep(m.mul(e.w, 0.65), m.mul(e.w, 1.15), m.abs(dx)));
  const towardCentre = m.g.op("Sign", [m.sub(faceX, b.x)]);
  const inner = m.clamp01(m.fma(m.mul(dx, towardCentre), m.div(1, m.mul(e.w, 1.3)), 0.5));
  const raise = m.mul(m.relu(p.brow), 0.36);
  const lower = m.mul(m.neg(m.relu(m.neg(p.brow))), 0.32);
  const amp = m.add(m.mul(raise, m.fma(inner, 0.4, 0.8)), m.mul(lower, m.fma(inner, 1.0, 0.15)));
  // Never lift more than 70% of the brow-to-lid gap (the stretch stays monotonic).
  const maxLift = m.mul(m.sub(downEnd, downStart), 0.7);
  return { row, colY: m.min(m.mul(m.mul(hb, amp), e.h), maxLift) };
}
