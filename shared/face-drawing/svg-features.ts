// Eyes, brows, nose and lips of a drawn face, placed exactly on the look's geometry
// (eye opening = anchors' eye box, lip seam = mouth anchor). A mood moves lids, brows and the
// corners of the closed lips; the seam stays through (cx, mouthY).
import type { FaceLook, Mood } from "./svg-face.ts";
import { arc, arcTo, smoothPath, type Pt } from "./svg-kit.ts";

/** How each mood moves the features, in units of the feature's own size; all zero for neutral. */
const MOOD_SHAPES: Record<Mood, { lid: number; lowerLid: number; brow: number; browInner: number; corner: number; lips: number }> = {
  neutral: { lid: 0, lowerLid: 0, brow: 0, browInner: 0, corner: 0, lips: 1 },
  smile: { lid: 0.04, lowerLid: 0.12, brow: -0.35, browInner: 0, corner: 0.075, lips: 0.92 },
  calm: { lid: 0.16, lowerLid: 0.04, brow: 0, browInner: 0, corner: 0.022, lips: 1 },
  serious: { lid: 0.06, lowerLid: 0, brow: 0.55, browInner: 0.55, corner: -0.012, lips: 0.84 },
  sad: { lid: 0.1, lowerLid: 0, brow: 0, browInner: -0.9, corner: -0.045, lips: 0.95 },
};

export const moodShape = (look: FaceLook) => MOOD_SHAPES[look.mood ?? "neutral"];

/** One eye centred at (ex, eyeY); `side` is -1 for image left, 1 for image right. */
export function drawEye(look: FaceLook, ex: number, side: number): string {
  const g = look.geo;
  const { eyeW: w, eyeH: h, eyeY: ey } = g;
  const id = `eye${side < 0 ? "L" : "R"}`;
  // Outer corner a touch higher than the inner one.
  const outer: Pt = [ex + (side * w) / 2, ey - h * 0.06];
  const inner: Pt = [ex - (side * w) / 2, ey + h * 0.06];
  const [l, r] = side < 0 ? [outer, inner] : [inner, outer];
  const skew = -side * w * 0.04;
  const mood = moodShape(look);
  // A lowered lid (calm, serious) or a cheek pushing the lower lid up (smile) narrows the opening.
  const upper = arc(l[0], l[1], r[0], r[1], ey - h / 2 + mood.lid * h, skew);
  const opening = upper + arcTo(r[0], r[1], l[0], l[1], ey + h / 2 - mood.lowerLid * h, skew) + " Z";
  const ir = h * 0.56;
  const flick = !(look.lashFlick ?? look.hairStyle !== "short")
    ? ""
    : `<path d="M${outer[0]},${outer[1]} q${side * w * 0.1},${-h * 0.08} ${side * w * 0.16},${-h * 0.3}" stroke="${look.lash}" stroke-width="${h * 0.1}" stroke-linecap="round" fill="none"/>`;
  return `<clipPath id="${id}"><path d="${opening}"/></clipPath>
<path d="${upper}" stroke="${look.skinShade}" stroke-width="${h * 0.5}" fill="none" opacity="0.45" filter="url(#blur6)"/>
<path d="${opening}" fill="url(#sclera)"/>
<g clip-path="url(#${id})">
<circle cx="${ex}" cy="${ey + h * 0.04}" r="${ir}" fill="${look.iris}"/>
<circle cx="${ex}" cy="${ey + h * 0.04}" r="${ir}" fill="none" stroke="#1d1510" stroke-width="${ir * 0.14}" opacity="0.55"/>
<circle cx="${ex}" cy="${ey + h * 0.04}" r="${ir * 0.46}" fill="#120d0b"/>
<circle cx="${ex + ir * 0.35}" cy="${ey - ir * 0.3}" r="${ir * 0.22}" fill="#fff" opacity="0.9"/>
<circle cx="${ex - ir * 0.3}" cy="${ey + ir * 0.38}" r="${ir * 0.1}" fill="#fff" opacity="0.5"/>
<path d="${upper}" stroke="#5a4038" stroke-width="${h * 0.55}" fill="none" opacity="0.22" filter="url(#blur2)"/>
</g>
<path d="${upper}" stroke="${look.lash}" stroke-width="${h * 0.13}" stroke-linecap="round" fill="none"/>${flick}
<path d="${arc(l[0], l[1], r[0], r[1], ey + h / 2 - mood.lowerLid * h, skew)}" stroke="${look.skinShade}" stroke-width="1.2" fill="none" opacity="0.7"/>`;
}

/** A tapered brow centred on (bx, browY), thick at the inner end. */
export function drawBrow(look: FaceLook, bx: number, side: number): string {
  const { browY: by, browW: bw, browT: t } = look.geo;
  const innerX = bx - (side * bw) / 2;
  const outerX = bx + (side * bw) / 2;
  const archX = bx + side * bw * 0.12;
  // Mood: the whole brow lowers (serious) or lifts (smile); the inner end drops (a frown) or rises (sad).
  const { brow, browInner } = moodShape(look);
  const lift = brow * t;
  const inner = lift + browInner * t;
  const pts: Pt[] = [
    [innerX, by + t * 0.55 + inner],
    [innerX + side * 2, by - t * 0.45 + inner],
    [archX, by - t * 0.75 + lift],
    [outerX, by + t * 0.35 + lift * 0.5],
    [archX, by + t * 0.2 + lift],
  ];
  return `<path d="${smoothPath(pts, true, 0.85)}" fill="${look.brow}"/>`;
}

export function drawNose(look: FaceLook): string {
  const { cx, noseY: ny, noseW: nw, eyeY } = look.geo;
  const wing = (s: number) =>
    `<path d="M${cx + s * nw * 0.32},${ny - nw * 0.32} q${s * nw * 0.2},${nw * 0.16} ${s * nw * 0.02},${nw * 0.34} q${-s * nw * 0.08},${nw * 0.06} ${-s * nw * 0.16},${nw * 0.02}" stroke="${look.skinShade}" stroke-width="2.2" fill="none" stroke-linecap="round"/>`;
  return `<path d="M${cx + nw * 0.12},${eyeY + 10} Q${cx + nw * 0.3},${ny - nw * 0.6} ${cx + nw * 0.22},${ny - nw * 0.2}" stroke="${look.skinShade}" stroke-width="5" fill="none" opacity="0.45" filter="url(#blur2)"/>
<ellipse cx="${cx}" cy="${ny + nw * 0.1}" rx="${nw * 0.3}" ry="${nw * 0.14}" fill="${look.skinShade}" opacity="0.55" filter="url(#blur2)"/>
${wing(-1)}${wing(1)}
<ellipse cx="${cx - nw * 0.04}" cy="${ny - nw * 0.18}" rx="${nw * 0.1}" ry="${nw * 0.07}" fill="#fff" opacity="0.35" filter="url(#blur2)"/>`;
}

/** Closed lips; the seam passes through the mouth anchor (cx, mouthY). */
export function drawMouth(look: FaceLook): string {
  const { cx, mouthY: my, mouthW: mw } = look.geo;
  const mood = moodShape(look);
  const L = cx - mw / 2;
  const R = cx + mw / 2;
  const ul = mw * 0.15 * mood.lips;
  const ll = mw * 0.2 * mood.lips;
  // Corners up (smile) or down; the seam still passes through (cx, my).
  const lift = mood.corner * mw;
  const cy = my - lift;
  const seamBack = arcTo(R, cy, L, cy, my + 0.6);
  const upper = smoothPath([
    [L, cy], [cx - mw * 0.3, my - ul * 0.62 - lift * 0.55], [cx - mw * 0.12, my - ul - lift * 0.12], [cx, my - ul * 0.74],
    [cx + mw * 0.12, my - ul - lift * 0.12], [cx + mw * 0.3, my - ul * 0.62 - lift * 0.55], [R, cy],
  ], false, 0.9) + seamBack + " Z";
  const lower = arc(L, cy, R, cy, my + 0.6) + arcTo(R, cy, L, cy, my + ll * 1.05) + " Z";
  const seam = arc(L - 1, cy - 0.3, R + 1, cy - 0.3, my + 0.8);
  const corners = [L, R].map((x) => `<circle cx="${x}" cy="${cy}" r="2.4" fill="#4a1c20" opacity="0.45" filter="url(#blur2)"/>`).join("");
  // A smile folds the cheeks beside the corners.
  const creases = lift > 1
    ? [-1, 1].map((s) => `<path d="M${cx + s * (mw / 2 + 3)},${cy - lift * 0.9} q${s * lift * 0.7},${lift * 0.9} ${s * lift * 0.1},${lift * 2}" stroke="${look.skinShade}" stroke-width="2" fill="none" stroke-linecap="round" opacity="0.7"/>`).join("")
    : "";
  return `<ellipse cx="${cx}" cy="${my + ll * 1.35}" rx="${mw * 0.22}" ry="${ll * 0.35}" fill="${look.skinShade}" opacity="0.45" filter="url(#blur2)"/>
<path d="${lower}" fill="${look.lipLower}"/>
<ellipse cx="${cx}" cy="${my + ll * 0.45}" rx="${mw * 0.16}" ry="${ll * 0.18}" fill="#fff" opacity="0.28" filter="url(#blur2)"/>
<path d="${upper}" fill="${look.lipUpper}"/>
<path d="${seam}" stroke="#4a1c20" stroke-width="1.8" fill="none" stroke-linecap="round" opacity="0.85"/>${corners}${creases}`;
}
