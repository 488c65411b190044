// The form of a drawn face by light and shade, as a painter models it: one soft key light from the
// image-left above, so the image-right side of the face, the eye sockets, the temples, the
// hollows under the cheekbones and the underside of the jaw fall into shade, and the forehead,
// cheekbones, nose bridge and chin catch the light. The nose is drawn by shading alone (no lines).
// Every layer is blurred and clipped to the face, so the renderer's warps move it with the skin.
import type { FaceLook } from "./svg-face.ts";
import { blur, softBlob } from "./svg-finish.ts";
import { darken, lighten, mix } from "./palette.ts";

type Blob = [cx: number, cy: number, rx: number, ry: number, fill: string, opacity: number, blurPx: number];

const blob = ([cx, cy, rx, ry, fill, o, b]: Blob) => softBlob(cx, cy, rx, ry, fill, o, b);

/** Shade and light over the face's skin; drawn right after the face fill, clipped to it. */
export function drawFaceModelling(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const shade = look.skinShade;
  const deep = darken(mix(look.skin, shade, 0.8), 0.12);
  // Highlights stay warm and keep the skin's own colour: white would look ashen on deep skin.
  const light = mix(look.skin, "#ffe6d2", 0.3);
  const hl = mix(look.skin, "#fff2e6", 0.55);
  const blobs: Blob[] = [
    // The turned-away side and the lit side.
    [g.cx + 0.6 * W, g.eyeY + 0.1 * H, 0.36 * W, 0.8 * H, deep, 0.75, 24],
    [g.cx + 0.5 * W, g.eyeY + 0.1 * H, 0.1 * W, 0.6 * H, deep, 0.45, 14],
    [g.cx - 0.62 * W, g.eyeY + 0.1 * H, 0.22 * W, 0.7 * H, shade, 0.5, 24],
    [g.cx - 0.16 * W, g.eyeY - 0.02 * H, 0.26 * W, 0.34 * H, light, 0.35, 24],
    // Skin turns warmer where light gives way to shade (light scattered under the skin).
    [g.cx + 0.3 * W, g.eyeY + 0.12 * H, 0.07 * W, 0.32 * H, look.blush, 0.14, 14],
    // Forehead and temples.
    [g.cx - 0.08 * W, g.hairline + 0.14 * H, 0.24 * W, 0.07 * H, hl, 0.14, 14],
    [g.cx - 0.47 * W, g.browY - 0.02 * H, 0.1 * W, 0.12 * H, shade, 0.45, 9],
    [g.cx + 0.47 * W, g.browY - 0.02 * H, 0.12 * W, 0.13 * H, deep, 0.55, 9],
    // Eye sockets under the brow ridge, darker towards the nose.
    ...[-1, 1].flatMap((s): Blob[] => [
      [g.cx + s * g.eyeDx, g.eyeY - g.eyeH * 0.25, g.eyeW * 0.78, g.eyeH * 1.15, s > 0 ? deep : shade, s > 0 ? 0.42 : 0.32, 6],
      [g.cx + s * (g.eyeDx - g.eyeW * 0.62), g.eyeY - g.eyeH * 0.1, g.eyeW * 0.16, g.eyeH * 0.75, deep, 0.4, 5],
      // Brow bone, under the brow's outer half.
      [
        g.cx + s * (g.eyeDx + g.eyeW * 0.12),
        (g.browY + g.eyeY) / 2 - g.eyeH * 0.15,
        g.eyeW * 0.4,
        g.eyeH * 0.28,
        hl,
        s < 0 ? 0.16 : 0.07,
        5,
      ],
    ]),
    // Cheekbones catch the light; the hollows under them do not.
    [g.cx - 0.28 * W, g.eyeY + 0.13 * H, 0.13 * W, 0.06 * H, hl, 0.16, 9],
    [g.cx + 0.28 * W, g.eyeY + 0.13 * H, 0.11 * W, 0.05 * H, hl, 0.07, 9],
    [g.cx - 0.38 * W, g.noseY + 0.06 * H, 0.09 * W, 0.08 * H, shade, 0.35, 14],
    [g.cx + 0.37 * W, g.noseY + 0.06 * H, 0.1 * W, 0.09 * H, deep, 0.45, 14],
    // Under the jaw and round the chin; the chin's ball catches a little light.
    [g.cx, g.chin + 0.02 * H, 0.34 * W, 0.055 * H, deep, 0.55, 9],
    [g.cx + g.jawW * 0.42, g.mouthY + 0.12 * H, 0.1 * W, 0.1 * H, deep, 0.4, 9],
    [g.cx - 0.02 * W, g.chin - 0.08 * H, 0.08 * W, 0.035 * H, hl, 0.14, 6],
    // The dip between lower lip and chin.
    [g.cx, (g.mouthY + g.chin) / 2 - 0.01 * H, g.mouthW * 0.3, 0.02 * H, shade, 0.3, 5],
  ];
  const folds = [-1, 1].map((s) => {
    // The soft fold from the nose wing past the mouth corner: a shadow with a lit edge above it.
    const x0 = g.cx + s * g.noseW * 0.5;
    const x1 = g.cx + s * (g.mouthW / 2 + 8);
    const d = `M${x0},${g.noseY - g.noseW * 0.05} Q${g.cx + s * (g.mouthW / 2 + 12)},${g.noseY + 0.05 * H} ${x1},${g.mouthY + 0.05 * H}`;
    return `<path d="${d}" stroke="${s > 0 ? deep : shade}" stroke-width="5" fill="none" opacity="${s > 0 ? 0.3 : 0.2}" filter="${blur(3)}"/>`;
  });
  const texture = `<rect x="${g.cx - 0.55 * W}" y="${g.hairline - 0.1 * H}" width="${1.1 * W}" height="${1.12 * H}" fill="url(#skinTile)" opacity="0.1"/>`;
  return `<g clip-path="url(#faceClip)">${blobs.map(blob).join("")}${folds.join("")}${texture}</g>`;
}

/** The nose as form: a lit bridge, a shaded side, a rounded tip, wings and nostrils in shadow. */
export function drawNose(look: FaceLook): string {
  const { cx, noseY: ny, noseW: nw, eyeY, eyeH } = look.geo;
  const shade = look.skinShade;
  const deep = darken(shade, 0.25);
  const top = eyeY + eyeH * 0.4;
  // The sides of the bridge: long, thin, soft ellipses, faint at the top where the bridge is narrow.
  const side = (s: number, colour: string, o: number, w: number) =>
    blob([cx + s * nw * 0.3, top + (ny - top) * 0.58, w / 2, (ny - top) * 0.42, colour, o, 4]);
  const wing = (s: number) => {
    const x = cx + s * nw * 0.36;
    // The groove round the wing: a soft crescent of shade, darker at its foot.
    return (
      blob([x, ny - nw * 0.02, nw * 0.15, nw * 0.2, s > 0 ? deep : shade, s > 0 ? 0.55 : 0.4, 3]) +
      `<path d="M${x + s * nw * 0.06},${ny - nw * 0.24} Q${x + s * nw * 0.2},${ny} ${x - s * nw * 0.02},${ny + nw * 0.14}" stroke="${deep}" stroke-width="1.8" fill="none" opacity="0.45" filter="${blur(1)}"/>` +
      blob([x - s * nw * 0.03, ny - nw * 0.1, nw * 0.07, nw * 0.06, "#ffffff", s < 0 ? 0.22 : 0.1, 2])
    );
  };
  const nostril = (s: number) =>
    `<ellipse cx="${cx + s * nw * 0.17}" cy="${ny + nw * 0.1}" rx="${nw * 0.09}" ry="${nw * 0.04}" transform="rotate(${s * 18} ${cx + s * nw * 0.17} ${ny + nw * 0.1})" fill="${darken(shade, 0.5)}" opacity="0.6" filter="${blur(1)}"/>`;
  return [
    side(1, deep, 0.4, nw * 0.2),
    side(-1, shade, 0.2, nw * 0.16),
    blob([cx - nw * 0.05, top + (ny - top) * 0.55, nw * 0.05, (ny - top) * 0.3, lighten(look.skin, 0.4), 0.3, 3]),
    // Under the tip, and the shadow the nose casts on the upper lip.
    blob([cx, ny + nw * 0.13, nw * 0.3, nw * 0.1, deep, 0.45, 3]),
    blob([cx + nw * 0.08, ny + nw * 0.36, nw * 0.34, nw * 0.09, shade, 0.4, 5]),
    wing(-1),
    wing(1),
    nostril(-1),
    nostril(1),
    blob([cx, ny - nw * 0.05, nw * 0.22, nw * 0.18, look.blush, 0.12, 3]),
    // The tip: a rounded highlight, brightest a little to the lit side.
    blob([cx - nw * 0.02, ny - nw * 0.1, nw * 0.17, nw * 0.13, lighten(look.skin, 0.3), 0.45, 3]),
    blob([cx - nw * 0.06, ny - nw * 0.14, nw * 0.05, nw * 0.035, lighten(look.skin, 0.5), 0.35, 1.5]),
  ].join("\n");
}

/** Ears, behind the face: a shaded bowl inside a lit rim. */
export function drawEars(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const deep = darken(look.skinShade, 0.2);
  return [-1, 1]
    .map((s) => {
      const x = g.cx + s * 0.475 * g.faceW;
      const y = g.eyeY + 0.07 * H;
      const rx = 0.06 * g.faceW;
      const ry = 0.11 * H;
      return `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="${s > 0 ? mix(look.skin, look.skinShade, 0.5) : look.skin}"/>
<ellipse cx="${x + s * 2}" cy="${y + ry * 0.05}" rx="${rx * 0.55}" ry="${ry * 0.62}" fill="${deep}" opacity="0.55" filter="${blur(3)}"/>
<path d="M${x - s * rx * 0.2},${y - ry * 0.8} Q${x + s * rx * 0.9},${y - ry * 0.7} ${x + s * rx * 0.7},${y + ry * 0.2}" stroke="${lighten(look.skin, 0.25)}" stroke-width="2.5" fill="none" opacity="0.5" filter="${blur(1)}"/>
<ellipse cx="${x}" cy="${y + ry * 0.78}" rx="${rx * 0.5}" ry="${ry * 0.22}" fill="${look.blush}" opacity="0.25" filter="${blur(3)}"/>`;
    })
    .join("\n");
}
