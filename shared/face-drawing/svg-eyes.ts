// Eyes and brows of a drawn face, placed exactly on the look's geometry (the eye opening is the
// renderer's eye box, its pupil sits on the eye anchor). An eye is an eyeball shaded by the lid
// above it, an iris with fibres, a dark limbal ring and one catchlight from the key light, a lid
// crease and lashes; a brow is a soft mass of short hairs growing up at the inner end and
// outwards along the arch. A mood moves lids and brows (svg-features.ts `moodShape`).
import type { FaceLook } from "./svg-face.ts";
import { moodShape } from "./svg-features.ts";
import { blur } from "./svg-finish.ts";
import { darken, lighten, mix } from "./palette.ts";
import { arc, arcTo, smoothPath, type Pt } from "./svg-kit.ts";
import { seededRandom } from "../util/seeded-random.ts";

const f = (n: number) => n.toFixed(1);

/** Iris gradient defs for a look (one per drawing). */
export function irisDefs(look: FaceLook): string {
  return `<radialGradient id="iris"><stop offset="0.3" stop-color="${lighten(look.iris, 0.22)}"/><stop offset="0.72" stop-color="${look.iris}"/><stop offset="1" stop-color="${darken(look.iris, 0.5)}"/></radialGradient>`;
}

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
  const upperPeak = ey - h / 2 + mood.lid * h;
  const lowerPeak = ey + h / 2 - mood.lowerLid * h;
  const upper = arc(l[0], l[1], r[0], r[1], upperPeak, skew);
  const opening = upper + arcTo(r[0], r[1], l[0], l[1], lowerPeak, skew) + " Z";
  // A real iris is about 0.45 of the eye's width, so the lids cover its top and often its foot.
  const ir = Math.max(h * 0.56, w * 0.225);
  const iy = ey + h * 0.04;
  const lit = side < 0;
  const rnd = seededRandom((look.detailSeed ?? 1) * 97 + (lit ? 1 : 2));
  const fibres: string[] = [];
  for (let i = 0; i < 28; i++) {
    const a = (i / 28) * Math.PI * 2 + rnd() * 0.15;
    const [c, s] = [Math.cos(a), Math.sin(a)];
    const colour = i % 2 ? lighten(look.iris, 0.35) : darken(look.iris, 0.4);
    fibres.push(
      `<path d="M${f(ex + c * ir * 0.5)},${f(iy + s * ir * 0.5)} L${f(ex + c * ir * 0.93)},${f(iy + s * ir * 0.93)}" stroke="${colour}" stroke-width="${f(ir * 0.07)}" opacity="0.35"/>`,
    );
  }
  // Lashes: short curved strokes from the upper lid, longer and denser towards the outer corner.
  const lashes: string[] = [];
  const long = look.lashFlick ?? look.hairStyle !== "short";
  for (let i = 0; i < 8; i++) {
    const t = 0.45 + (i / 7) * 0.55;
    const x = ex - (side * w) / 2 + side * t * w;
    const yLid = upperPeak + (Math.abs(x - ex) / (w / 2)) ** 2 * (ey - upperPeak) * 0.9;
    const len = h * (long ? 0.06 + 0.2 * t : 0.04 + 0.08 * t);
    lashes.push(
      `<path d="M${f(x)},${f(yLid)} q${f(side * len * 0.05)},${f(-len * 0.6)} ${f(side * len * (0.3 + 0.4 * t))},${f(-len * 0.9)}" stroke="${look.lash}" stroke-width="${f(h * 0.055)}" fill="none" stroke-linecap="round" opacity="0.7"/>`,
    );
  }
  const crease = arc(l[0] + side * w * 0.04, l[1] - h * 0.25, r[0] - side * w * 0.04, r[1] - h * 0.3, upperPeak - h * 0.42, skew);
  const shade = look.skinShade;
  return `<clipPath id="${id}"><path d="${opening}"/></clipPath>
<path d="${crease}" stroke="${darken(shade, 0.25)}" stroke-width="${f(h * 0.09)}" fill="none" opacity="0.55" filter="${blur(1)}"/>
<path d="${upper}" stroke="${lighten(look.skin, 0.2)}" stroke-width="${f(h * 0.3)}" fill="none" opacity="0.25" filter="${blur(2)}" transform="translate(0 ${f(-h * 0.3)})"/>
<path d="${opening}" fill="url(#sclera)"/>
<g clip-path="url(#${id})">
<circle cx="${ex}" cy="${iy}" r="${ir}" fill="url(#iris)"/>
${fibres.join("")}
<circle cx="${ex}" cy="${iy}" r="${f(ir * 0.95)}" fill="none" stroke="${darken(look.iris, 0.65)}" stroke-width="${f(ir * 0.14)}" opacity="0.7"/>
<circle cx="${ex}" cy="${iy}" r="${f(ir * 0.44)}" fill="#0e0a09"/>
<path d="${upper}" stroke="#3a2822" stroke-width="${f(h * 0.7)}" fill="none" opacity="0.38" filter="${blur(2)}"/>
<circle cx="${f(ex - ir * 0.32)}" cy="${f(iy - ir * 0.32)}" r="${f(ir * 0.2)}" fill="#fff" opacity="0.92"/>
<circle cx="${f(ex + ir * 0.3)}" cy="${f(iy + ir * 0.36)}" r="${f(ir * 0.08)}" fill="#fff" opacity="0.4"/>
<ellipse cx="${f(inner[0] + side * w * 0.04)}" cy="${f(inner[1])}" rx="${f(w * 0.07)}" ry="${f(h * 0.2)}" fill="${mix(look.blush, "#ffffff", 0.2)}" opacity="0.7" filter="${blur(1)}"/>
</g>
<path d="${upper}" stroke="${look.lash}" stroke-width="${f(h * 0.14)}" stroke-linecap="round" fill="none"/>
${lashes.join("")}
<path d="${arc(l[0], l[1], r[0], r[1], lowerPeak, skew)}" stroke="${lighten(look.skin, 0.3)}" stroke-width="1.4" fill="none" opacity="0.5"/>
<path d="${arc(l[0], l[1] + 1.5, r[0], r[1] + 1.5, lowerPeak + 2.2, skew)}" stroke="${darken(shade, 0.2)}" stroke-width="1.2" fill="none" opacity="0.5" filter="${blur(1)}"/>`;
}

/** A brow centred on (bx, browY), thick at the inner end: a soft mass under short hairs. */
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
  // The centre line the hairs grow along, and the brow's thickness there.
  const centre = (u: number): [number, number, number] => {
    const x = innerX + side * u * bw;
    const archU = 0.62;
    const y =
      u < archU
        ? by + inner * (1 - u / archU) + lift * (u / archU) - t * 0.25 * (u / archU)
        : by - t * 0.25 + lift + (t * 0.55 - lift * 0.5) * ((u - archU) / (1 - archU));
    return [x, y, t * (1.1 - 0.75 * u)];
  };
  const rnd = seededRandom((look.detailSeed ?? 1) * 53 + (side < 0 ? 3 : 4));
  const hairs: string[] = [];
  for (let i = 0; i < 46; i++) {
    const u = rnd() ** 0.9;
    const [x, y, th] = centre(u);
    const y0 = y + (rnd() - 0.5) * th;
    // Upright at the inner end, lying along the arch further out.
    const ang = (75 - 65 * Math.min(1, u * 1.6)) * (Math.PI / 180);
    const len = t * (0.9 + rnd() * 0.8);
    const colour = rnd() < 0.3 ? lighten(look.brow, 0.2) : look.brow;
    hairs.push(
      `<path d="M${f(x)},${f(y0 + len * 0.3)} q${f(side * Math.cos(ang) * len * 0.4)},${f(-Math.sin(ang) * len * 0.6)} ${f(side * Math.cos(ang) * len)},${f(-Math.sin(ang) * len * 0.7)}" stroke="${colour}" stroke-width="${f(Math.max(0.8, t * 0.13))}" fill="none" stroke-linecap="round" opacity="0.7"/>`,
    );
  }
  return `<path d="${smoothPath(pts, true, 0.85)}" fill="${look.brow}" opacity="0.6" filter="${blur(1)}"/>${hairs.join("")}`;
}
