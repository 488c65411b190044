// Implements: the mouth interior in the face's own colours (issue 10 item 2: "the interior is
// painted in the photo's own lighting and colours"). Four colours sampled once per face from its
// pixels around the mouth anchors; the built-in model paints the cavity, teeth and tongue from
// them (box/render/README.md, the `mouth` input).
import type { FaceAnchors } from "./prepared-face.ts";

/** A colour as BT.601 limited-range Y, U, V (0..255). */
export type Yuv = [number, number, number];

export interface MouthPalette {
  /** The darkest colour along the line where the lips meet (the mouth's own shadow). */
  line: Yuv;
  /** The lips. */
  lip: Yuv;
  /** Skin beside and below the mouth. */
  skin: Yuv;
  /** Teeth: the photo's own when it shows them, else off-white matched to the skin's lighting. */
  teeth: Yuv;
}

/** What the renderer paints the open mouth with, derived from a palette (`mouthInterior`). */
export interface MouthInterior {
  /** The cavity: the lip line's colour at a third of its brightness (never above a third of the skin's). */
  back: Yuv;
  /** The lips' inner faces along the opening: the lip line itself, so the edge meets the photo's seam. */
  rim: Yuv;
  /** Subdued: between the lips' colour and the line's, in the mouth's shade. */
  tongue: Yuv;
  /** The teeth, as sampled or matched. */
  teeth: Yuv;
}

/** Order of the colours in the model's `mouth` input. */
export const INTERIOR_KEYS = ["back", "rim", "tongue", "teeth"] as const satisfies readonly (keyof MouthInterior)[];
/** Number of floats in the model's `mouth` input: four colours (Y, U, V each), then the picture's opening. */
export const MOUTH_INPUT_SIZE = INTERIOR_KEYS.length * 3 + 1;

/** For a face whose pixels say nothing usable (a mouth outside the frame). */
export const DEFAULT_MOUTH_PALETTE: MouthPalette = {
  line: [52, 126, 150],
  lip: [118, 118, 158],
  skin: [170, 114, 146],
  teeth: [196, 124, 132],
};

/** Towards black (luma) and grey (chroma) by `luma` and `chroma` of the way. */
const shade = (c: Yuv, luma: number, chroma: number): Yuv => [
  16 + (c[0] - 16) * (1 - luma),
  128 + (c[1] - 128) * (1 - chroma),
  128 + (c[2] - 128) * (1 - chroma),
];
const mix = (a: Yuv, b: Yuv, t: number): Yuv => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

/** The interior's colours from the sampled palette: a dark cavity of the mouth's own hue. */
export function mouthInterior(p: MouthPalette): MouthInterior {
  const back = shade(p.line, 0.65, 0.2);
  back[0] = Math.min(back[0], 16 + (p.skin[0] - 16) * 0.32);
  return { back, rim: p.line, tongue: shade(mix(p.lip, p.line, 0.35), 0.3, 0.3), teeth: p.teeth };
}

/**
 * The model's `mouth` input: the interior's colours (back, rim, tongue, teeth; Y, U, V each),
 * then `gap`, how far below the seam the picture has its lower lip's inner edge (px; 0 for a
 * closed mouth: FaceAnchors mouth.gap).
 */
export function mouthVector(p: MouthPalette, gap = 0, out = new Float32Array(MOUTH_INPUT_SIZE)): Float32Array {
  const c = mouthInterior(p);
  INTERIOR_KEYS.forEach((k, i) => out.set(c[k], i * 3));
  out[MOUTH_INPUT_SIZE - 1] = Number.isFinite(gap) && gap > 0 ? gap : 0;
  return out;
}

interface Px {
  y: number;
  u: number;
  v: number;
}

/** The pixels of a box (luma pixels, chroma of the 2x2 block), clipped to the frame. */
function pixels(i420: Uint8Array, w: number, h: number, x0: number, y0: number, x1: number, y1: number): Px[] {
  const out: Px[] = [];
  const cw = w / 2;
  const uOff = w * h;
  const vOff = uOff + cw * (h / 2);
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(h, Math.round(y1)); y++) {
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(w, Math.round(x1)); x++) {
      const c = (y >> 1) * cw + (x >> 1);
      out.push({ y: i420[y * w + x], u: i420[uOff + c], v: i420[vOff + c] });
    }
  }
  return out;
}

const meanOf = (px: Px[]): Yuv => {
  const s = px.reduce((a, p) => [a[0] + p.y, a[1] + p.u, a[2] + p.v], [0, 0, 0]);
  return [s[0] / px.length, s[1] / px.length, s[2] / px.length];
};
/** Per-channel median. */
const medianOf = (px: Px[]): Yuv => {
  const med = (vals: number[]) => vals.sort((a, b) => a - b)[vals.length >> 1];
  return [med(px.map((p) => p.y)), med(px.map((p) => p.u)), med(px.map((p) => p.v))];
};
const chroma = (p: { u: number; v: number }) => Math.hypot(p.u - 128, p.v - 128);

/**
 * Samples the palette from a face image (I420) around its mouth anchors. Pure and cheap (a few
 * thousand pixels), so a face loaded without one gets the same palette again.
 */
export function sampleMouthPalette(i420: Uint8Array, width: number, height: number, a: FaceAnchors): MouthPalette {
  const { x: mx, y: my, width: mW } = a.mouth;
  if (!(mW > 2) || mx < 0 || my < 0 || mx >= width || my >= height) return DEFAULT_MOUTH_PALETTE;
  const box = (x0: number, y0: number, x1: number, y1: number) =>
    pixels(i420, width, height, mx + x0 * mW, my + y0 * mW, mx + x1 * mW, my + y1 * mW);

  // Skin: beside both corners, over the upper lip and under the lower one; the median shrugs
  // off a patch that falls on hair, the background or a smile's fold.
  const skinPx = [
    ...box(-0.95, -0.02, -0.75, 0.22),
    ...box(0.75, -0.02, 0.95, 0.22),
    ...box(-0.32, -0.45, -0.12, -0.32),
    ...box(0.12, -0.45, 0.32, -0.32),
    ...box(-0.2, 0.5, 0.2, 0.62),
  ];
  if (skinPx.length < 8) return DEFAULT_MOUTH_PALETTE;
  const skin = medianOf(skinPx);
  const skinC = { u: skin[1], v: skin[2] };

  // Line: per column the darkest pixel near the seam; the darker half of those.
  const colMins: Px[] = [];
  for (let x = Math.round(mx - 0.38 * mW); x < mx + 0.38 * mW; x++) {
    const col = pixels(i420, width, height, x, my - 0.06 * mW, x + 1, my + 0.1 * mW);
    if (col.length) colMins.push(col.reduce((d, p) => (p.y < d.y ? p : d)));
  }
  if (colMins.length < 2) return DEFAULT_MOUTH_PALETTE;
  colMins.sort((p, q) => p.y - q.y);
  const line = meanOf(colMins.slice(0, Math.max(1, colMins.length >> 1)));

  // Teeth: bright, nearly grey pixels just under the seam (a photo taken smiling).
  const gap = box(-0.3, 0, 0.3, 0.12);
  const teethPx = gap.filter((p) => p.y > skin[0] - 12 && chroma(p) < Math.max(6, chroma(skinC) * 0.75));
  let teeth: Yuv;
  if (gap.length && teethPx.length > gap.length * 0.15) {
    teethPx.sort((p, q) => q.y - p.y);
    teeth = meanOf(teethPx.slice(0, Math.max(1, teethPx.length >> 1)));
  } else {
    // Off-white under the same light as the skin: brighter than the skin, never paper white.
    const y = Math.min(212, skin[0] + 0.33 * (225 - skin[0]));
    teeth = [Math.max(y, Math.min(skin[0] + 20, 212)), 128 + (skin[1] - 128) * 0.35, 128 + (skin[2] - 128) * 0.35];
  }

  // Lips: around the seam, the pixels whose colour is furthest from the skin's (redder, or a
  // lipstick's hue), leaving out teeth, highlights and the dark line.
  const darkCut = line[0] + 0.35 * (skin[0] - line[0]);
  const lipRegion = box(-0.4, -0.2, 0.4, 0.3).filter(
    (p) => p.y > darkCut && p.y < Math.max(skin[0] + 8, darkCut + 1) && p.v >= skin[2] - 3,
  );
  let lip: Yuv;
  if (lipRegion.length >= 8) {
    const far = lipRegion.map((p) => ({ p, k: Math.hypot(p.u - skin[1], p.v - skin[2]) + Math.max(0, skin[0] - p.y) * 0.1 }));
    far.sort((a, b) => b.k - a.k);
    lip = meanOf(far.slice(0, Math.max(4, Math.round(far.length * 0.3))).map((f) => f.p));
  } else {
    lip = [line[0] + 0.6 * (skin[0] - line[0]), skin[1] - 4, skin[2] + 10];
  }
  return { line, lip, skin, teeth };
}
