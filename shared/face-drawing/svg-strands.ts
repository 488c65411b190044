// Hair as strands: fields of fine curves that follow the hair's flow between two guide curves,
// light ones where the hair catches the light and dark ones in the partings between locks, and
// the finish every hair mass gets (a soft edge, a sheen band on the lit side, a grain).
import type { FaceLook } from "./svg-face.ts";
import { blur, softBlob } from "./svg-finish.ts";
import { darken, lighten } from "./palette.ts";
import type { Pt } from "./svg-kit.ts";

/** A quadratic curve: start, control, end. */
export type Curve = [Pt, Pt, Pt];

const f = (n: number) => n.toFixed(1);
const lerp = (a: Pt, b: Pt, t: number): Pt => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];

export interface StrandOptions {
  /** Strands in the field. */
  count: number;
  /** Random jitter of each strand's points, in px. */
  jitter?: number;
  width?: number;
}

/** `count` strands spread between guide curves `a` and `b`, in the look's hair colours. */
export function strandField(look: FaceLook, rnd: () => number, a: Curve, b: Curve, opts: StrandOptions): string {
  const j = opts.jitter ?? 3;
  const w = opts.width ?? 1.2;
  const light = lighten(look.hairLight, 0.15);
  const dark = darken(look.hair, 0.45);
  const out: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const t = Math.min(1, Math.max(0, (i + rnd()) / opts.count));
    const p = [0, 1, 2].map((k) => {
      const q = lerp(a[k], b[k], t);
      return [q[0] + (rnd() - 0.5) * j * (k === 0 ? 0.5 : 1.5), q[1] + (rnd() - 0.5) * j] as Pt;
    });
    const kind = rnd();
    const [colour, opacity, width] =
      kind < 0.45
        ? [light, 0.18 + rnd() * 0.25, w]
        : kind < 0.8
          ? [dark, 0.25 + rnd() * 0.25, w * 1.3]
          : [look.hairLight, 0.35 + rnd() * 0.3, w * 0.7];
    out.push(
      `<path d="M${f(p[0][0])},${f(p[0][1])} Q${f(p[1][0])},${f(p[1][1])} ${f(p[2][0])},${f(p[2][1])}" stroke="${colour}" stroke-width="${f(width)}" fill="none" opacity="${opacity.toFixed(2)}" stroke-linecap="round"/>`,
    );
  }
  return out.join("");
}

/**
 * A hair mass drawn with volume: its outline `d` filled with the hair gradient and a soft edge,
 * shaded away from the light, a sheen band across the lit side, `inside` (strands) clipped to it.
 */
export function hairMass(
  look: FaceLook,
  id: string,
  d: string,
  inside: string,
  sheen: [number, number, number, number],
  fill = "url(#hairGrad)",
): string {
  const [sx, sy, rx, ry] = sheen;
  return `<clipPath id="${id}"><path d="${d}"/></clipPath>
<path d="${d}" fill="${darken(look.hair, 0.2)}" filter="${blur(2)}"/>
<path d="${d}" fill="${fill}" filter="${blur(1)}"/>
<g clip-path="url(#${id})">
<rect x="0" y="0" width="512" height="512" fill="url(#hairShade)"/>
${softBlob(sx, sy, rx, ry, lighten(look.hairLight, 0.2), 0.35, 9)}
${inside}
</g>
<path d="${d}" fill="url(#hairTile)" opacity="0.3"/>`;
}

/** Gradient defs hair masses use: darker towards the image-right, away from the light. */
export function hairDefs(look: FaceLook): string {
  const d = darken(look.hair, 0.45);
  return `<linearGradient id="hairShade" gradientUnits="userSpaceOnUse" x1="${look.geo.cx - look.geo.faceW * 0.6}" y1="0" x2="${look.geo.cx + look.geo.faceW * 0.75}" y2="0"><stop offset="0" stop-color="${d}" stop-opacity="0"/><stop offset="0.55" stop-color="${d}" stop-opacity="0"/><stop offset="1" stop-color="${d}" stop-opacity="0.6"/></linearGradient>`;
}

/** The shadow a front hair mass casts on the forehead below it. */
export function castShadow(d: string, opacity = 0.32): string {
  return `<g clip-path="url(#faceClip)"><path d="${d}" fill="#1a0f0a" opacity="${opacity}" filter="${blur(5)}" transform="translate(3 6)"/></g>`;
}

/** Hair wound round a bun: arcs at random radii and angles about (cx, cy). */
export function bunStrands(look: FaceLook, rnd: () => number, cx: number, cy: number, rx: number, ry: number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const k = 0.25 + rnd() * 0.72;
    const a0 = rnd() * Math.PI * 2;
    const a1 = a0 + 1 + rnd() * 1.4;
    const p = (a: number) => `${f(cx + Math.cos(a) * rx * k)},${f(cy + Math.sin(a) * ry * k)}`;
    const light = rnd() < 0.5;
    out.push(
      `<path d="M${p(a0)} A${f(rx * k)},${f(ry * k)} 0 0 1 ${p(a1)}" stroke="${light ? lighten(look.hairLight, 0.15) : darken(look.hair, 0.45)}" stroke-width="1.2" fill="none" opacity="${light ? 0.35 : 0.4}"/>`,
    );
  }
  return out.join("");
}
