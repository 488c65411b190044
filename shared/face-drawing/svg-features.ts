// The lips of a drawn face and the moods that move the features: the lip seam passes through the
// mouth anchor (cx, mouthY) in every mood. Lips are modelled like the face (svg-modelling.ts):
// the upper lip faces down and sits in shade, the lower lip faces the light and carries a
// highlight, the seam and corners are the darkest parts, edges are soft.
// Eyes and brows: svg-eyes.ts; the nose: svg-modelling.ts.
import type { FaceLook, Mood } from "./svg-face.ts";
import { blur } from "./svg-finish.ts";
import { darken, lighten, mix } from "./palette.ts";
import { arc, arcTo, smoothPath } from "./svg-kit.ts";

/** How each mood moves the features, in units of the feature's own size; all zero for neutral. */
const MOOD_SHAPES: Record<Mood, { lid: number; lowerLid: number; brow: number; browInner: number; corner: number; lips: number }> = {
  neutral: { lid: 0, lowerLid: 0, brow: 0, browInner: 0, corner: 0, lips: 1 },
  smile: { lid: 0.04, lowerLid: 0.12, brow: -0.35, browInner: 0, corner: 0.075, lips: 0.92 },
  calm: { lid: 0.16, lowerLid: 0.04, brow: 0, browInner: 0, corner: 0.022, lips: 1 },
  serious: { lid: 0.06, lowerLid: 0, brow: 0.55, browInner: 0.55, corner: -0.012, lips: 0.84 },
  sad: { lid: 0.1, lowerLid: 0, brow: 0, browInner: -0.9, corner: -0.045, lips: 0.95 },
};

export const moodShape = (look: FaceLook) => MOOD_SHAPES[look.mood ?? "neutral"];

/** Lip gradient defs for a look (one per drawing). */
export function lipDefs(look: FaceLook): string {
  const { mouthY: my, mouthW: mw } = look.geo;
  const up = look.lipUpper;
  const lo = look.lipLower;
  return `<linearGradient id="lipUp" gradientUnits="userSpaceOnUse" x1="0" y1="${my - mw * 0.17}" x2="0" y2="${my}"><stop offset="0" stop-color="${mix(up, lo, 0.3)}"/><stop offset="0.6" stop-color="${up}"/><stop offset="1" stop-color="${darken(up, 0.25)}"/></linearGradient>
<linearGradient id="lipLo" gradientUnits="userSpaceOnUse" x1="0" y1="${my}" x2="0" y2="${my + mw * 0.22}"><stop offset="0" stop-color="${darken(lo, 0.2)}"/><stop offset="0.45" stop-color="${lighten(lo, 0.06)}"/><stop offset="1" stop-color="${mix(lo, look.skinShade, 0.45)}"/></linearGradient>`;
}

/** Closed lips; the seam passes through the mouth anchor (cx, mouthY). */
export function drawMouth(look: FaceLook): string {
  const { cx, mouthY: my, mouthW: mw, noseY, noseW } = look.geo;
  const mood = moodShape(look);
  const L = cx - mw / 2;
  const R = cx + mw / 2;
  const ul = mw * 0.15 * mood.lips;
  const ll = mw * 0.2 * mood.lips;
  // Corners up (smile) or down; the seam still passes through (cx, my).
  const lift = mood.corner * mw;
  const cy = my - lift;
  const seamBack = arcTo(R, cy, L, cy, my + 0.6);
  const upperEdge = smoothPath(
    [
      [L, cy],
      [cx - mw * 0.3, my - ul * 0.62 - lift * 0.55],
      [cx - mw * 0.12, my - ul - lift * 0.12],
      [cx, my - ul * 0.74],
      [cx + mw * 0.12, my - ul - lift * 0.12],
      [cx + mw * 0.3, my - ul * 0.62 - lift * 0.55],
      [R, cy],
    ],
    false,
    0.9,
  );
  const upper = upperEdge + seamBack + " Z";
  const lower = arc(L, cy, R, cy, my + 0.6) + arcTo(R, cy, L, cy, my + ll * 1.05) + " Z";
  const seam = arc(L - 1, cy - 0.3, R + 1, cy - 0.3, my + 0.8);
  const shade = look.skinShade;
  const deep = darken(look.lipUpper, 0.6);
  const corners = [L, R]
    .map((x) => `<ellipse cx="${x}" cy="${cy}" rx="3.2" ry="2.4" fill="${deep}" opacity="0.5" filter="${blur(2)}"/>`)
    .join("");
  // A smile folds the cheeks beside the corners.
  const creases =
    lift > 1
      ? [-1, 1]
          .map(
            (s) =>
              `<path d="M${cx + s * (mw / 2 + 3)},${cy - lift * 0.9} q${s * lift * 0.7},${lift * 0.9} ${s * lift * 0.1},${lift * 2}" stroke="${darken(shade, 0.1)}" stroke-width="2.4" fill="none" stroke-linecap="round" opacity="0.55" filter="${blur(1)}"/>`,
          )
          .join("")
      : "";
  // The philtrum: a shallow groove from the nose to the cupid's bow between two lit ridges.
  const pTop = noseY + noseW * 0.3;
  const pBot = my - ul * 0.95;
  const ridges = [-1, 1]
    .map(
      (s) =>
        `<path d="M${cx + s * mw * 0.06},${pTop} L${cx + s * mw * 0.11},${pBot}" stroke="${lighten(look.skin, 0.3)}" stroke-width="2.2" fill="none" opacity="${s < 0 ? 0.35 : 0.18}" filter="${blur(1)}"/>`,
    )
    .join("");
  return `<path d="M${cx},${pTop} L${cx},${pBot}" stroke="${shade}" stroke-width="${mw * 0.09}" fill="none" opacity="0.35" filter="${blur(2)}"/>${ridges}
<ellipse cx="${cx}" cy="${my + ll * 1.4}" rx="${mw * 0.26}" ry="${ll * 0.38}" fill="${darken(shade, 0.2)}" opacity="0.5" filter="${blur(3)}"/>
<path d="${upperEdge}" stroke="${lighten(look.skin, 0.35)}" stroke-width="2" fill="none" opacity="0.45" filter="${blur(1)}" transform="translate(0 -1.2)"/>
<path d="${lower}" fill="url(#lipLo)" filter="${blur(1)}"/>
<ellipse cx="${cx - mw * 0.04}" cy="${my + ll * 0.45}" rx="${mw * 0.17}" ry="${ll * 0.17}" fill="#fff" opacity="0.32" filter="${blur(2)}"/>
<ellipse cx="${cx - mw * 0.06}" cy="${my + ll * 0.4}" rx="${mw * 0.05}" ry="${ll * 0.06}" fill="#fff" opacity="0.45" filter="${blur(1)}"/>
<path d="${upper}" fill="url(#lipUp)" filter="${blur(1)}"/>
<ellipse cx="${cx - mw * 0.1}" cy="${my - ul * 0.6}" rx="${mw * 0.08}" ry="${ul * 0.14}" fill="#fff" opacity="0.16" filter="${blur(1)}"/>
<path d="${seam}" stroke="${deep}" stroke-width="3.2" fill="none" opacity="0.35" filter="${blur(1)}"/>
<path d="${seam}" stroke="${deep}" stroke-width="1.5" fill="none" stroke-linecap="round" opacity="0.85"/>${corners}${creases}`;
}
