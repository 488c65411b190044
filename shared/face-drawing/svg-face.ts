// Draws a face as SVG on a 512x512 canvas from a look (colours + geometry): the box's stock
// avatars (box/avatars/stock/, whose renderer anchors come from the same geometry) and the
// portal's drawn portraits (portal/portraits/). Pure string building: runs on every runtime.
// Every field added after the stock faces is optional and absent means the stock drawing.
// The style (one key light, soft shading, textured skin and hair, an out-of-focus background) is
// described in box/avatars/stock/README.md; this file lays the parts out in painting order.
import { drawAgeLines, drawFreckles } from "./svg-age.ts";
import { drawFullBeard, drawMoustache } from "./svg-beard.ts";
import { drawBackdrop, drawGrain } from "./svg-backdrop.ts";
import { drawBody } from "./svg-body.ts";
import { drawBrow, drawEye, irisDefs } from "./svg-eyes.ts";
import { drawMouth, lipDefs } from "./svg-features.ts";
import { finishDefs, noiseTiles, resetSoftIds } from "./svg-finish.ts";
import { drawGlasses } from "./svg-glasses.ts";
import { drawBackHair, drawFrontHair } from "./svg-hair.ts";
import { darken, lighten, mix } from "./palette.ts";
import { linear, mirror, radial, smoothPath, type Pt } from "./svg-kit.ts";
import { drawEars, drawFaceModelling, drawNose } from "./svg-modelling.ts";
import { hairDefs } from "./svg-strands.ts";

export const CANVAS = 512;

export interface FaceGeometry {
  cx: number;
  hairline: number;
  chin: number;
  faceW: number;
  jawW: number;
  eyeY: number;
  eyeDx: number;
  eyeW: number;
  eyeH: number;
  browY: number;
  browW: number;
  browT: number;
  noseY: number;
  noseW: number;
  mouthY: number;
  mouthW: number;
  neckW: number;
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
  skin: string;
  skinShade: string;
  blush: string;
  hair: string;
  hairLight: string;
  hairStyle: HairStyle;
  iris: string;
  brow: string;
  lash: string;
  lipUpper: string;
  lipLower: string;
  cloth: string;
  clothShade: string;
  clothStyle: "scoop" | "collar";
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
    [g.cx - 0.2 * W, g.chin - 0.05 * H],
    [g.cx - 0.08 * W, g.chin - 0.006 * H],
  ];
  return [[g.cx, g.hairline - 0.09 * H], ...left, [g.cx, g.chin], ...mirror(left, g.cx)];
}

function cheeks(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const blush = [-1, 1]
    .map(
      (s) =>
        `<ellipse cx="${g.cx + s * 0.3 * g.faceW}" cy="${g.eyeY + 0.17 * H}" rx="${0.13 * g.faceW}" ry="${0.07 * H}" fill="url(#blush)"/>`,
    )
    .join("");
  return (
    blush +
    (look.stubble ? beard(look, H) : "") +
    (look.freckles ? drawFreckles(look) : "") +
    (look.age !== undefined ? drawAgeLines(look) : "")
  );
}

/** A short beard and moustache: along the jaw, round the chin, over the upper lip. */
function beard(look: FaceLook, H: number): string {
  const g = look.geo;
  const W = g.faceW;
  const left: Pt[] = [
    [g.cx - 0.52 * W, g.eyeY + 0.02 * H],
    [g.cx - 0.5 * W, g.mouthY - 0.06 * H],
    [g.cx - g.jawW * 0.52, g.mouthY + 0.12 * H],
    [g.cx - 0.16 * W, g.chin + 0.01 * H],
  ];
  const innerRight: Pt[] = [
    [g.cx + 0.43 * W, g.eyeY + 0.1 * H],
    [g.cx + 0.36 * W, g.mouthY - 0.05 * H],
    [g.cx + 0.22 * W, g.noseY + 0.05 * H],
    [g.cx + 0.07 * W, g.noseY + 0.045 * H],
  ];
  const outline = smoothPath(
    [...left, [g.cx, g.chin + 0.015 * H], ...mirror(left, g.cx), ...innerRight, [g.cx, g.noseY + 0.06 * H], ...mirror(innerRight, g.cx)],
    true,
    0.8,
  );
  // A faint shadow of the hair under the skin, and the dots of the hairs themselves.
  return `<g clip-path="url(#faceClip)"><path d="${outline}" fill="${look.stubble}" opacity="0.18" filter="url(#blur6)"/>
<path d="${outline}" fill="${look.stubble}" opacity="0.6" filter="url(#stubbleTex)"/></g>`;
}

export function drawFaceSvg(look: FaceLook): string {
  resetSoftIds();
  const g = look.geo;
  const outline = smoothPath(faceOutline(g));
  const defs = [
    radial(
      "bg",
      [
        [0, look.bg[0]],
        [1, look.bg[1]],
      ],
      0.4,
      0.35,
      0.8,
    ),
    // Lit from the image-left above: the skin's lightest point sits left of centre.
    radial(
      "skin",
      [
        [0, lighten(look.skin, 0.08)],
        [0.55, look.skin],
        [0.85, mix(look.skin, look.skinShade, 0.6)],
        [1, look.skinShade],
      ],
      0.42,
      0.38,
      0.68,
    ),
    radial(
      "sclera",
      [
        [0, "#f7f2ee"],
        [0.55, "#ebe3de"],
        [1, "#b9a9a2"],
      ],
      0.5,
      0.5,
      0.5,
    ),
    radial("blush", [
      [0, look.blush, 0.4],
      [1, look.blush, 0],
    ]),
    linear("cloth", [
      [0, lighten(look.cloth, 0.06)],
      [1, look.clothShade],
    ]),
    linear(
      "hairGrad",
      [
        [0, look.hairLight],
        [0.65, look.hair],
      ],
      0,
      0,
      0.45,
      1,
    ),
    finishDefs(look.detailSeed),
    noiseTiles({ skin: darken(look.skinShade, 0.2), hair: darken(look.hair, 0.5), cloth: darken(look.clothShade, 0.3) }),
    irisDefs(look),
    lipDefs(look),
    hairDefs(look),
    `<clipPath id="faceClip"><path d="${outline}"/></clipPath>`,
  ].join("\n");
  const eyes = [-1, 1].map((s) => drawEye(look, g.cx + s * g.eyeDx, s)).join("\n");
  const brows = [-1, 1].map((s) => drawBrow(look, g.cx + s * g.eyeDx, s)).join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CANVAS} ${CANVAS}" width="${CANVAS}" height="${CANVAS}">
<defs>${defs}</defs>
${drawBackdrop(look, CANVAS)}
${drawBackHair(look)}
${drawBody(look)}
${drawEars(look)}
<path d="${outline}" fill="url(#skin)"/>
${drawFaceModelling(look)}
${cheeks(look)}${look.facialHair?.style === "full" || look.facialHair?.style === "goatee" ? `\n${drawFullBeard(look, look.facialHair)}` : ""}
${drawNose(look)}
${eyes}
${brows}
${drawMouth(look)}${look.facialHair ? `\n${drawMoustache(look, look.facialHair)}` : ""}${look.glasses ? `\n${drawGlasses(look, look.glasses)}` : ""}
${drawFrontHair(look)}
${drawGrain(CANVAS)}
</svg>`;
}
