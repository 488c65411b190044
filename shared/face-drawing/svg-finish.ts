// The filters that give a drawn face its painted, photo-like finish: Gaussian blurs of several
// sizes (soft shading and soft edges), film grain for the background, pore-scale skin texture,
// stubble dots and hair grain. librsvg (ffmpeg on the box, sharp on the portal) renders them all.
import { seededRandom } from "../util/seeded-random.ts";

const BLURS = [1, 2, 3, 5, 6, 9, 14, 24, 40];

/** `url(#blurN)` for the nearest defined blur. */
export function blur(n: number): string {
  const best = BLURS.reduce((a, b) => (Math.abs(b - n) < Math.abs(a - n) ? b : a));
  return `url(#blur${best})`;
}

/** Noise shown through the painted shape's own alpha: keeps its colour, adds grain inside it. */
function noiseFilter(id: string, freq: string, octaves: number, alpha: [number, number], seed: number, soften = 0): string {
  const src = soften > 0 ? `<feGaussianBlur in="SourceGraphic" stdDeviation="${soften}" result="src"/>` : "";
  return (
    `<filter id="${id}" x="-10%" y="-10%" width="120%" height="120%">${src}<feTurbulence type="fractalNoise" baseFrequency="${freq}" numOctaves="${octaves}" seed="${seed}" stitchTiles="stitch" result="noise"/>` +
    `<feColorMatrix in="noise" type="matrix" values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  ${alpha[0]} 0 0 0 ${alpha[1]}" result="dots"/>` +
    `<feComposite in="${soften > 0 ? "src" : "SourceGraphic"}" in2="dots" operator="in"/></filter>`
  );
}

const TILE = 128;

/**
 * A repeating tile of a noise filter's grain in `colour`, used as a fill: the noise is computed
 * once for a 128 px tile instead of for every pixel of every shape it covers (rasterising cost),
 * and stitched so the repeats do not show.
 */
function noiseTile(id: string, filter: string, colour: string): string {
  return `<pattern id="${id}" width="${TILE}" height="${TILE}" patternUnits="userSpaceOnUse"><rect width="${TILE}" height="${TILE}" fill="${colour}" filter="url(#${filter})"/></pattern>`;
}

/** Fills of grain: `url(#grainTile)`, `url(#skinTile)`, `url(#hairTile)`, `url(#clothTile)`. */
export function noiseTiles(colours: { skin: string; hair: string; cloth: string }): string {
  return [
    noiseTile("grainTile", "grain", "#808080"),
    noiseTile("skinTile", "skinTex", colours.skin),
    noiseTile("hairTile", "hairTex", colours.hair),
    noiseTile("clothTile", "hairTex", colours.cloth),
  ].join("");
}

export function finishDefs(seed = 1): string {
  const s = Math.floor(seededRandom(seed * 131 + 17)() * 1000);
  return [
    ...BLURS.map(
      (b) => `<filter id="blur${b}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${b}"/></filter>`,
    ),
    // Fine grain over the whole picture: what tells a photograph from a vector fill.
    noiseFilter("grain", "0.9", 1, [2.2, -0.95], s),
    // Pores and unevenness: larger, softer blotches at low strength.
    noiseFilter("skinTex", "0.35", 2, [2.4, -1.05], s + 1),
    // Stubble: small dark dots, dense, with a soft outer edge.
    noiseFilter("stubbleTex", "0.75", 1, [3, -1.2], s + 2, 4),
    // Tight short hair: a dense, coarse grain.
    noiseFilter("hairTex", "0.8 0.5", 2, [2.6, -1.1], s + 3),
  ].join("\n");
}

let softIds = 0;

/**
 * A soft-edged ellipse, as if blurred by `feather` px, drawn with a radial gradient instead of a
 * blur filter: the same look at a fraction of the rasterising cost (a blur filter works on a
 * surface twice the shape's size; a gradient costs no more than a flat fill).
 */
export function softBlob(cx: number, cy: number, rx: number, ry: number, colour: string, opacity: number, feather: number): string {
  const Rx = rx + feather * 1.3;
  const Ry = ry + feather * 1.3;
  const core = Math.max(0, Math.min(rx / Rx, ry / Ry) - 0.35 * (feather / Math.max(Rx, Ry)));
  const id = `soft${(softIds = (softIds + 1) % 1e6)}`;
  const f = (n: number) => n.toFixed(1);
  const stops = [
    [0, 1],
    [core, 1],
    [core + (1 - core) * 0.5, 0.45],
    [core + (1 - core) * 0.78, 0.12],
    [1, 0],
  ]
    .map(([o, a]) => `<stop offset="${o.toFixed(3)}" stop-color="${colour}" stop-opacity="${a}"/>`)
    .join("");
  return `<radialGradient id="${id}">${stops}</radialGradient><ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(Rx)}" ry="${f(Ry)}" fill="url(#${id})" opacity="${opacity}"/>`;
}

/** Restarts soft-blob ids, so one look always draws the same SVG text. */
export function resetSoftIds(): void {
  softIds = 0;
}
