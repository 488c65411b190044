// The background of a drawn face as a portrait photographer's: a wall or room far out of focus,
// brighter on the side of the key light (a window's glow), falling off into shadow behind the
// shoulders, a few soft out-of-focus lights, a gentle vignette and film grain.
import type { FaceLook } from "./svg-face.ts";
import { softBlob } from "./svg-finish.ts";
import { darken, lighten, mix } from "./palette.ts";
import { seededRandom } from "../util/seeded-random.ts";

export function drawBackdrop(look: FaceLook, size: number): string {
  const [centre, rim] = look.bg;
  const rnd = seededRandom((look.detailSeed ?? 1) * 389 + 11);
  const bokeh: string[] = [];
  for (let i = 0; i < 7; i++) {
    // Out-of-focus highlights in the upper corners, away from the head.
    const left = i % 2 === 0;
    const x = left ? rnd() * 120 : size - rnd() * 120;
    const y = 20 + rnd() * 220;
    const r = 12 + rnd() * 26;
    bokeh.push(softBlob(x, y, r * 0.4, r * 0.4, lighten(centre, 0.6), Number((0.1 + rnd() * 0.15).toFixed(2)), r * 0.6));
  }
  return `<defs><radialGradient id="vignette" cx="0.45" cy="0.4" r="0.75"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.35"/></radialGradient></defs>
<rect width="${size}" height="${size}" fill="url(#bg)"/>
${softBlob(size * 0.1, size * 0.3, size * 0.15, size * 0.4, lighten(centre, 0.55), 0.55, 40)}
${softBlob(size * 0.92, size * 0.7, size * 0.2, size * 0.42, darken(rim, 0.3), 0.45, 40)}
${softBlob(size * 0.78, size * 0.18, size * 0.12, size * 0.18, mix(centre, rim, 0.5), 0.5, 24)}
${bokeh.join("")}
<rect width="${size}" height="${size}" fill="url(#vignette)"/>`;
}

/** Film grain and the vignette over the whole finished picture. */
export function drawGrain(size: number): string {
  return `<rect width="${size}" height="${size}" fill="url(#grainTile)" opacity="0.07"/>`;
}
