// Hair for the stock faces: a mass behind the head and a front part framing the forehead.
// Kept clear of the brows so brow and blink warps move skin, not hair.
import type { FaceLook } from "./svg-face.ts";
import { mirror, smoothPath, type Pt } from "./svg-kit.ts";

function strands(look: FaceLook, paths: string[]): string {
  return paths
    .map((d) => `<path d="${d}" stroke="${look.hairLight}" stroke-width="2" fill="none" opacity="0.45" stroke-linecap="round"/>`)
    .join("");
}

export function drawBackHair(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  if (look.hairStyle === "long") {
    // Falls past the jaw, fuller towards the shoulders, ends in soft waves.
    const left: Pt[] = [
      [g.cx - 0.5 * W, g.hairline - 0.17 * H], [g.cx - 0.66 * W, g.eyeY - 0.08 * H],
      [g.cx - 0.69 * W, g.mouthY - 0.02 * H], [g.cx - 0.76 * W, g.chin + 0.08 * H],
      [g.cx - 0.8 * W, g.chin + 0.2 * H], [g.cx - 0.7 * W, g.chin + 0.25 * H],
      [g.cx - 0.62 * W, g.chin + 0.2 * H], [g.cx - 0.52 * W, g.chin + 0.24 * H],
      [g.cx - 0.42 * W, g.chin + 0.12 * H], [g.cx - 0.3 * W, g.chin - 0.02 * H],
    ];
    const d = smoothPath([[g.cx, g.hairline - 0.26 * H], ...left, ...mirror(left, g.cx)]);
    const shade = smoothPath([
      [g.cx - 0.5 * W, g.eyeY], [g.cx - 0.58 * W, g.chin], [g.cx - 0.4 * W, g.chin + 0.1 * H], [g.cx - 0.44 * W, g.mouthY],
    ]);
    return `<path d="${d}" fill="${look.hair}"/>
<path d="${shade}" fill="#000" opacity="0.25" filter="url(#blur6)"/>
<path d="${smoothPath(mirror([[g.cx - 0.5 * W, g.eyeY], [g.cx - 0.58 * W, g.chin], [g.cx - 0.4 * W, g.chin + 0.1 * H], [g.cx - 0.44 * W, g.mouthY]], g.cx))}" fill="#000" opacity="0.25" filter="url(#blur6)"/>
${strands(look, [
  `M${g.cx - 0.6 * W},${g.eyeY} Q${g.cx - 0.7 * W},${g.chin - 0.05 * H} ${g.cx - 0.66 * W},${g.chin + 0.2 * H}`,
  `M${g.cx - 0.55 * W},${g.mouthY} Q${g.cx - 0.6 * W},${g.chin} ${g.cx - 0.52 * W},${g.chin + 0.2 * H}`,
  `M${g.cx + 0.6 * W},${g.eyeY} Q${g.cx + 0.72 * W},${g.chin - 0.05 * H} ${g.cx + 0.7 * W},${g.chin + 0.2 * H}`,
  `M${g.cx + 0.56 * W},${g.mouthY} Q${g.cx + 0.62 * W},${g.chin} ${g.cx + 0.56 * W},${g.chin + 0.22 * H}`,
])}`;
  }
  if (look.hairStyle === "bun") {
    return `<ellipse cx="${g.cx}" cy="${g.hairline - 0.26 * H}" rx="${0.19 * W}" ry="${0.16 * W}" fill="${look.hair}"/>
<ellipse cx="${g.cx - 0.05 * W}" cy="${g.hairline - 0.29 * H}" rx="${0.09 * W}" ry="${0.06 * W}" fill="${look.hairLight}" opacity="0.5" filter="url(#blur6)"/>`;
  }
  return "";
}

export function drawFrontHair(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const top = g.hairline;
  if (look.hairStyle === "long") {
    // Side parting on the image-left, fringe sweeping to the image-right.
    const d = smoothPath([
      [g.cx - 0.53 * W, g.eyeY - 0.02 * H], [g.cx - 0.6 * W, top + 0.02 * H], [g.cx - 0.45 * W, top - 0.17 * H],
      [g.cx - 0.05 * W, top - 0.24 * H], [g.cx + 0.42 * W, top - 0.18 * H], [g.cx + 0.6 * W, top + 0.02 * H],
      [g.cx + 0.56 * W, g.eyeY + 0.06 * H], [g.cx + 0.47 * W, g.eyeY - 0.1 * H], [g.cx + 0.38 * W, top + 0.1 * H],
      [g.cx + 0.12 * W, top + 0.12 * H], [g.cx - 0.16 * W, top + 0.06 * H], [g.cx - 0.3 * W, top + 0.02 * H],
      [g.cx - 0.44 * W, top + 0.1 * H], [g.cx - 0.48 * W, g.eyeY - 0.12 * H],
    ], true, 0.9);
    return `<path d="${d}" fill="url(#hairGrad)"/>${strands(look, [
      `M${g.cx - 0.2 * W},${top - 0.18 * H} Q${g.cx + 0.1 * W},${top - 0.12 * H} ${g.cx + 0.3 * W},${top + 0.06 * H}`,
      `M${g.cx - 0.35 * W},${top - 0.1 * H} Q${g.cx - 0.05 * W},${top - 0.05 * H} ${g.cx + 0.1 * W},${top + 0.1 * H}`,
      `M${g.cx + 0.3 * W},${top - 0.15 * H} Q${g.cx + 0.52 * W},${top - 0.02 * H} ${g.cx + 0.52 * W},${g.eyeY}`,
      `M${g.cx - 0.45 * W},${top - 0.05 * H} Q${g.cx - 0.56 * W},${top + 0.1 * H} ${g.cx - 0.52 * W},${g.eyeY - 0.05 * H}`,
    ])}`;
  }
  if (look.hairStyle === "bun") {
    // Pulled back: a smooth hairline from temple to temple, strands running to the bun.
    const side: Pt[] = [
      [g.cx - 0.5 * W, g.eyeY - 0.09 * H], [g.cx - 0.53 * W, g.eyeY - 0.2 * H], [g.cx - 0.49 * W, top - 0.04 * H],
      [g.cx - 0.33 * W, top - 0.15 * H],
    ];
    const line: Pt[] = [
      [g.cx + 0.47 * W, g.eyeY - 0.12 * H], [g.cx + 0.42 * W, top + 0.08 * H], [g.cx + 0.3 * W, top + 0.02 * H],
      [g.cx + 0.13 * W, top - 0.005 * H],
    ];
    const d = smoothPath([
      ...side, [g.cx, top - 0.19 * H], ...mirror(side, g.cx), ...line, [g.cx, top + 0.015 * H], ...mirror(line, g.cx),
    ], true, 0.8);
    return `<path d="${d}" fill="url(#hairGrad)"/>${strands(look, [-0.3, -0.12, 0.12, 0.3].map((f) =>
      `M${g.cx + f * 1.3 * W},${top - 0.01 * H} Q${g.cx + f * 1.1 * W},${top - 0.14 * H} ${g.cx + f * 0.3 * W},${top - 0.2 * H}`))}`;
  }
  // Short hair: a cap with a soft hairline and short sideburns.
  const left: Pt[] = [
    [g.cx - 0.47 * W, g.eyeY - 0.02 * H], [g.cx - 0.53 * W, top + 0.02 * H], [g.cx - 0.4 * W, top - 0.15 * H],
  ];
  const hairline: Pt[] = [
    [g.cx + 0.42 * W, top + 0.04 * H], [g.cx + 0.2 * W, top - 0.01 * H], [g.cx - 0.05 * W, top + 0.0 * H],
    [g.cx - 0.3 * W, top + 0.02 * H], [g.cx - 0.44 * W, top + 0.08 * H],
  ];
  const d = smoothPath([
    ...left, [g.cx, top - 0.2 * H], ...mirror(left, g.cx), [g.cx + 0.44 * W, top + 0.1 * H], ...hairline,
  ], true, 0.85);
  return `<path d="${d}" fill="url(#hairGrad)"/>${strands(look, [
    `M${g.cx - 0.3 * W},${top - 0.08 * H} Q${g.cx},${top - 0.17 * H} ${g.cx + 0.3 * W},${top - 0.08 * H}`,
    `M${g.cx - 0.4 * W},${top - 0.02 * H} Q${g.cx - 0.1 * W},${top - 0.1 * H} ${g.cx + 0.15 * W},${top - 0.06 * H}`,
  ])}`;
}
