// Reads the anchors and params inputs into named scalars, and moves the anchor points with
// the head so expression fields stay on the features while the head turns and shifts.
import type { Maths, V } from "./graph-builder.ts";
import { ANCHOR_LAYOUT, PARAM_ORDER } from "./io.ts";

export interface EyeS {
  x: V;
  y: V;
  w: V;
  h: V;
}
export interface PointS {
  x: V;
  y: V;
}
export interface AnchorS {
  fx: V;
  fy: V;
  fW: V;
  fH: V;
  chin: V;
  mx: V;
  my: V;
  mW: V;
  le: EyeS;
  re: EyeS;
  lb: PointS;
  rb: PointS;
}
export type ParamS = Record<(typeof PARAM_ORDER)[number], V>;
export interface HeadS {
  px: V;
  py: V;
  c: V;
  s: V;
  tx: V;
  ty: V;
}

/** Parameter ranges the model accepts; values outside are clamped. */
const RANGES: Record<(typeof PARAM_ORDER)[number], [number, number]> = {
  open: [0, 1],
  wide: [0, 1],
  round: [0, 1],
  smile: [-1, 1],
  blink: [0, 1],
  brow: [-1, 1],
  headX: [-64, 64],
  headY: [-64, 64],
  headRoll: [-0.35, 0.35],
  breathe: [-1, 1],
};

export function readAnchors(m: Maths, anchors: V): AnchorS {
  const at = (name: (typeof ANCHOR_LAYOUT)[number]) => m.at(anchors, ANCHOR_LAYOUT.indexOf(name));
  const fy = at("face.y");
  const fH = at("face.height");
  const eye = (side: "leftEye" | "rightEye"): EyeS => ({
    x: at(`${side}.x`),
    y: at(`${side}.y`),
    w: at(`${side}.width`),
    h: at(`${side}.height`),
  });
  return {
    fx: at("face.x"),
    fy,
    fW: at("face.width"),
    fH,
    chin: m.fma(fH, 0.5, fy),
    mx: at("mouth.x"),
    my: at("mouth.y"),
    mW: at("mouth.width"),
    le: eye("leftEye"),
    re: eye("rightEye"),
    lb: { x: at("leftBrow.x"), y: at("leftBrow.y") },
    rb: { x: at("rightBrow.x"), y: at("rightBrow.y") },
  };
}

export function readParams(m: Maths, params: V): ParamS {
  const out = {} as ParamS;
  PARAM_ORDER.forEach((name, i) => {
    const [lo, hi] = RANGES[name];
    out[name] = m.clip(m.at(params, i), lo, hi);
  });
  return out;
}

/** Head pose: pivot at the neck, rotation by headRoll (clockwise on screen), shift by headX/Y. */
export function headPose(m: Maths, a: AnchorS, p: ParamS): HeadS {
  const c = m.cos(p.headRoll);
  const s = m.sin(p.headRoll);
  return {
    px: a.fx,
    py: m.fma(a.fH, 0.25, a.chin),
    c,
    s,
    // Backward map subtracts R(-roll)·shift; see terms-head.ts.
    tx: m.add(m.mul(c, p.headX), m.mul(s, p.headY)),
    ty: m.sub(m.mul(c, p.headY), m.mul(s, p.headX)),
  };
}

/** Where an anchor point lands after the head pose (the face is rigid within the head region). */
export function movePoint(m: Maths, h: HeadS, p: ParamS, pt: PointS): PointS {
  const qx = m.sub(pt.x, h.px);
  const qy = m.sub(pt.y, h.py);
  return {
    x: m.add(m.add(h.px, m.sub(m.mul(h.c, qx), m.mul(h.s, qy))), p.headX),
    y: m.add(m.add(h.py, m.add(m.mul(h.s, qx), m.mul(h.c, qy))), p.headY),
  };
}

export function moveAnchors(m: Maths, a: AnchorS, h: HeadS, p: ParamS): AnchorS {
  const mv = (pt: PointS) => movePoint(m, h, p, pt);
  const mouth = mv({ x: a.mx, y: a.my });
  const chin = mv({ x: a.fx, y: a.chin });
  const face = mv({ x: a.fx, y: a.fy });
  const le = mv(a.le);
  const re = mv(a.re);
  return {
    ...a,
    fx: face.x,
    fy: face.y,
    chin: chin.y,
    mx: mouth.x,
    my: mouth.y,
    le: { ...a.le, ...le },
    re: { ...a.re, ...re },
    lb: mv(a.lb),
    rb: mv(a.rb),
  };
}
