// Draws a face as SVG on a 512x512 canvas from a look (colours + geometry): the box's stock
// avatars (box/avatars/stock/, whose renderer anchors come from the same geometry) and the
// portal's drawn portraits (portal/portraits/). Pure string building: runs on every runtime.
// Every field added after the stock faces is optional and absent means the stock drawing.
import { drawAgeLines, drawFreckles } from "./svg-age.ts";
import { drawFullBeard, drawMoustache } from "./svg-beard.ts";
import { drawBrow, drawEye, drawMouth, drawNose } from "./svg-features.ts";
import { drawGlasses } from "./svg-glasses.ts";
import { drawBackHair, drawFrontHair } from "./svg-hair.ts";
import { linear, mirror, radial, smoothPath, type Pt } from "./svg-kit.ts";

export const CANVAS = 512;

export interface FaceGeometry {
  cx: number; hairline: number; chin: number; faceW: number; jawW: number;
  eyeY: number; eyeDx: number; eyeW: number; eyeH: number;
  browY: number; browW: number; browT: number;
  noseY: number; noseW: number; mouthY: number; mouthW: number; neckW: number;
}

export type HairStyle = "long" | "short" | "bun" | "curly" | "bald";
/** Closed-mouth expressions; `neutral` (the default) is the stock faces' resting face. */
export type Mood = "neutral" | "smile" | "serious" | "calm" | "sad";

export interface Glasses {
  shape: "round" | "square";
  /** Frame colour. */
  frame: string;
}

export interface FacialHair {
  /** `full`: jaw, chin and moustache; `goatee`: chin and moustache; `moustache` alone. */
  style: "full" | "goatee" | "moustache";
  color: string;
  light: string;
}

export interface FaceLook {
  id: string;
  label: string;
  bg: [string, string];
  skin: string; skinShade: string; blush: string;
  hair: string; hairLight: string; hairStyle: HairStyle;
  iris: string; brow: string; lash: string;
  lipUpper: string; lipLower: string;
  cloth: string; clothShade: string; clothStyle: "scoop" | "collar";
  stubble?: string;
  /** The flick at the outer corner of the upper lash line; default: every hair style but `short`. */
  lashFlick?: boolean;
  glasses?: Glasses;
  facialHair?: FacialHair;
  /** Years. From about 40 lines show (nose to mouth, forehead, eye corners), deepening with age. */
  age?: number;
  mood?: Mood;
  freckles?: boolean;
  /** Seeds small irregularities (freckle places); default 1. */
  detailSeed?: number;
  geo: FaceGeometry;
}

/** Face outline (no hair, no ears) through cheekbones, jaw and chin. */
export function faceOutline(g: FaceGeometry): Pt[] {
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const left: Pt[] = [
    [g.cx - 0.36 * W, g.hairline - 0.02 * H],
    [g.cx - 0.49 * W, g.eyeY - 0.16 * H],
    [g.cx - 0.5 * W, g.eyeY + 0.04 * H],
    [g.cx - 0.46 * W, g.mouthY - 0.1 * H],
    [g.cx - g.jawW / 2, g.mouthY + 0.1 * H],
    [g.cx - 0.15 * W, g.chin - 0.035 * H],
  ];
  return [[g.cx, g.hairline - 0.09 * H], ...left, [g.cx, g.chin], ...mirror(left, g.cx)];
}

function body(look: FaceLook): string {
  const g = look.geo;
  const n = g.neckW / 2;
  const neck = smoothPath([
    [g.cx - n, g.mouthY], [g.cx - n * 1.02, g.chin + 30], [g.cx - n * 1.25, 470], [g.cx + n * 1.25, 470],
    [g.cx + n * 1.02, g.chin + 30], [g.cx + n, g.mouthY],
  ], true, 0.5);
  const shoulder: Pt[] = [[-30, 540], [-30, 478], [40, 446], [g.cx - n - 38, 426], [g.cx - n - 6, 420]];
  const dip: Pt[] = look.clothStyle === "scoop" ? [[g.cx, 468]] : [[g.cx - 16, 440], [g.cx, 462], [g.cx + 16, 440]];
  const torso = smoothPath([...shoulder, ...dip, ...mirror(shoulder, g.cx)], true, 0.7);
  const flap = (s: number) =>
    smoothPath([[g.cx - s * (n + 12), 416], [g.cx - s * 5, 460], [g.cx - s * 30, 482], [g.cx - s * (n + 34), 444]], true, 0.3);
  const collar = look.clothStyle === "collar"
    ? [1, -1].map((s) => `<path d="${flap(s)}" fill="${look.cloth}" stroke="${look.clothShade}" stroke-width="2.5"/>
<path d="${flap(s)}" fill="#fff" opacity="0.12"/>`).join("\n")
    : `<path d="${smoothPath([[g.cx - n - 6, 421], [g.cx, 470], [g.cx + n + 6, 421]], false)}" stroke="${look.clothShade}" stroke-width="5" fill="none"/>`;
  return `<path d="${neck}" fill="url(#skin)"/>
<ellipse cx="${g.cx}" cy="${g.chin + 8}" rx="${n * 1.2}" ry="26" fill="${look.skinShade}" opacity="0.7" filter="url(#blur6)" clip-path="url(#neckClip)"/>
<clipPath id="neckClip"><path d="${neck}"/></clipPath>
<path d="${torso}" fill="url(#cloth)"/>${collar}`;
}

function ears(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  return [-1, 1].map((s) => {
    const x = g.cx + s * 0.49 * g.faceW;
    const y = g.eyeY + 0.07 * H;
    return `<ellipse cx="${x}" cy="${y}" rx="${0.075 * g.faceW}" ry="${0.12 * H}" fill="${look.skin}"/>
<ellipse cx="${x + s * 3}" cy="${y}" rx="${0.035 * g.faceW}" ry="${0.07 * H}" fill="${look.skinShade}" opacity="0.6" filter="url(#blur2)"/>`;
  }).join("\n");
}

function cheeks(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const blush = [-1, 1]
    .map((s) => `<ellipse cx="${g.cx + s * 0.3 * g.faceW}" cy="${g.eyeY + 0.17 * H}" rx="${0.13 * g.faceW}" ry="${0.07 * H}" fill="url(#blush)"/>`)
    .join("");
  return blush + (look.stubble ? beard(look, H) : "") + (look.freckles ? drawFreckles(look) : "") + (look.age !== undefined ? drawAgeLines(look) : "");
}

/** A short beard and moustache: along the jaw, round the chin, over the upper lip. */
function beard(look: FaceLook, H: number): string {
  const g = look.geo;
  const W = g.faceW;
  const left: Pt[] = [
    [g.cx - 0.52 * W, g.eyeY + 0.02 * H], [g.cx - 0.5 * W, g.mouthY - 0.06 * H], [g.cx - g.jawW * 0.52, g.mouthY + 0.12 * H],
    [g.cx - 0.16 * W, g.chin + 0.01 * H],
  ];
  const innerRight: Pt[] = [
    [g.cx + 0.43 * W, g.eyeY + 0.1 * H], [g.cx + 0.36 * W, g.mouthY - 0.05 * H], [g.cx + 0.22 * W, g.noseY + 0.05 * H],
    [g.cx + 0.07 * W, g.noseY + 0.045 * H],
  ];
  const outline = smoothPath([
    ...left, [g.cx, g.chin + 0.015 * H], ...mirror(left, g.cx), ...innerRight, [g.cx, g.noseY + 0.06 * H],
    ...mirror(innerRight, g.cx),
  ], true, 0.8);
  return `<path d="${outline}" fill="${look.stubble}" opacity="0.42" filter="url(#blur2)" clip-path="url(#faceClip)"/>`;
}


export function drawFaceSvg(look: FaceLook): string {
  const g = look.geo;
  const outline = smoothPath(faceOutline(g));
  const defs = [
    radial("bg", [[0, look.bg[0]], [1, look.bg[1]]], 0.5, 0.38, 0.75),
    radial("skin", [[0, look.skin], [0.72, look.skin], [1, look.skinShade]], 0.5, 0.42, 0.62),
    radial("sclera", [[0, "#fbf8f5"], [0.55, "#f3eeea"], [1, "#cdbfb8"]], 0.5, 0.5, 0.5),
    radial("blush", [[0, look.blush, 0.45], [1, look.blush, 0]]),
    linear("cloth", [[0, look.cloth], [1, look.clothShade]]),
    linear("hairGrad", [[0, look.hairLight], [0.6, look.hair]], 0, 0, 0.3, 1),
    `<filter id="blur2" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="2"/></filter>`,
    `<filter id="blur6" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="6"/></filter>`,
    `<clipPath id="faceClip"><path d="${outline}"/></clipPath>`,
  ].join("\n");
  const eyes = [-1, 1].map((s) => drawEye(look, g.cx + s * g.eyeDx, s)).join("\n");
  const brows = [-1, 1].map((s) => drawBrow(look, g.cx + s * g.eyeDx, s)).join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CANVAS} ${CANVAS}" width="${CANVAS}" height="${CANVAS}">
<defs>${defs}</defs>
<rect width="${CANVAS}" height="${CANVAS}" fill="url(#bg)"/>
${drawBackHair(look)}
${body(look)}
${ears(look)}
<path d="${outline}" fill="url(#skin)"/>
${cheeks(look)}${look.facialHair?.style === "full" || look.facialHair?.style === "goatee" ? `\n${drawFullBeard(look, look.facialHair)}` : ""}
${drawNose(look)}
${eyes}
${brows}
${drawMouth(look)}${look.facialHair ? `\n${drawMoustache(look, look.facialHair)}` : ""}${look.glasses ? `\n${drawGlasses(look, look.glasses)}` : ""}
${drawFrontHair(look)}
</svg>`;
}
