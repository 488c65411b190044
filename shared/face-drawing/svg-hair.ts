// Hair for the drawn faces: a mass behind the head and a front part framing the forehead.
// Kept clear of the brows so brow and blink warps move skin, not hair.
import type { FaceLook } from "./svg-face.ts";
import { mix } from "./palette.ts";
import { mirror, smoothPath, type Pt } from "./svg-kit.ts";
import { bunStrands, castShadow, hairMass, strandField } from "./svg-strands.ts";
import { seededRandom } from "../util/seeded-random.ts";

/** The random stream of one hair part (strand places), fixed per look. */
const hairRandom = (look: FaceLook, part: number) => seededRandom((look.detailSeed ?? 1) * 211 + part);

export function drawBackHair(look: FaceLook): string {
  if (look.hairStyle === "curly") return drawBackCurly(look);
  if (look.hairStyle === "bald") return drawBackBald(look);
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  if (look.hairStyle === "long") {
    // Falls past the jaw, fuller towards the shoulders, ends in soft waves.
    const left: Pt[] = [
      [g.cx - 0.5 * W, g.hairline - 0.17 * H],
      [g.cx - 0.66 * W, g.eyeY - 0.08 * H],
      [g.cx - 0.69 * W, g.mouthY - 0.02 * H],
      [g.cx - 0.76 * W, g.chin + 0.08 * H],
      [g.cx - 0.8 * W, g.chin + 0.2 * H],
      [g.cx - 0.7 * W, g.chin + 0.25 * H],
      [g.cx - 0.62 * W, g.chin + 0.2 * H],
      [g.cx - 0.52 * W, g.chin + 0.24 * H],
      [g.cx - 0.38 * W, g.chin + 0.2 * H],
      [g.cx - 0.2 * W, g.chin + 0.06 * H],
    ];
    const d = smoothPath([[g.cx, g.hairline - 0.26 * H], ...left, ...mirror(left, g.cx)]);
    const shade = smoothPath([
      [g.cx - 0.5 * W, g.eyeY],
      [g.cx - 0.58 * W, g.chin],
      [g.cx - 0.4 * W, g.chin + 0.1 * H],
      [g.cx - 0.44 * W, g.mouthY],
    ]);
    const rnd = hairRandom(look, 1);
    const fields = [-1, 1]
      .map((s) =>
        strandField(
          look,
          rnd,
          [
            [g.cx + s * 0.45 * W, g.hairline - 0.2 * H],
            [g.cx + s * 0.74 * W, g.eyeY],
            [g.cx + s * 0.76 * W, g.chin + 0.24 * H],
          ],
          [
            [g.cx + s * 0.3 * W, g.hairline - 0.05 * H],
            [g.cx + s * 0.5 * W, g.mouthY],
            [g.cx + s * 0.4 * W, g.chin + 0.16 * H],
          ],
          { count: 70, jitter: 5 },
        ),
      )
      .join("");
    const shadeR = smoothPath(
      mirror(
        [
          [g.cx - 0.5 * W, g.eyeY],
          [g.cx - 0.58 * W, g.chin],
          [g.cx - 0.4 * W, g.chin + 0.1 * H],
          [g.cx - 0.44 * W, g.mouthY],
        ],
        g.cx,
      ),
    );
    return hairMass(
      look,
      "hairBackClip",
      d,
      `<path d="${shade}" fill="#000" opacity="0.3" filter="url(#blur6)"/>
<path d="${shadeR}" fill="#000" opacity="0.4" filter="url(#blur6)"/>${fields}`,
      [g.cx - 0.62 * W, g.mouthY, 0.08 * W, 0.3 * H],
      look.hair,
    );
  }
  if (look.hairStyle === "bun") {
    // Kept inside the canvas on a high hairline (the stock faces' bun is inside already: drop 0).
    const drop = Math.max(0, 0.16 * W + 6 - (g.hairline - 0.26 * H));
    const [bx, by, rx, ry] = [g.cx, g.hairline - 0.26 * H + drop, 0.19 * W, 0.16 * W];
    const d = `M${bx - rx},${by} a${rx},${ry} 0 1 0 ${2 * rx},0 a${rx},${ry} 0 1 0 ${-2 * rx},0 Z`;
    return hairMass(
      look,
      "bunClip",
      d,
      `<ellipse cx="${bx + rx * 0.3}" cy="${by + ry * 0.4}" rx="${rx * 0.8}" ry="${ry * 0.6}" fill="#000" opacity="0.3" filter="url(#blur6)"/>
${bunStrands(look, hairRandom(look, 2), bx, by, rx, ry, 60)}`,
      [bx - rx * 0.35, by - ry * 0.35, rx * 0.45, ry * 0.3],
      look.hair,
    );
  }
  return "";
}

export function drawFrontHair(look: FaceLook): string {
  if (look.hairStyle === "curly") return drawFrontCurly(look);
  if (look.hairStyle === "bald") return drawFrontBald(look);
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const top = g.hairline;
  if (look.hairStyle === "long") {
    // Side parting on the image-left, fringe sweeping to the image-right.
    const d = smoothPath(
      [
        [g.cx - 0.53 * W, g.eyeY - 0.02 * H],
        [g.cx - 0.6 * W, top + 0.02 * H],
        [g.cx - 0.45 * W, top - 0.17 * H],
        [g.cx - 0.05 * W, top - 0.24 * H],
        [g.cx + 0.42 * W, top - 0.18 * H],
        [g.cx + 0.6 * W, top + 0.02 * H],
        [g.cx + 0.56 * W, g.eyeY + 0.06 * H],
        [g.cx + 0.47 * W, g.eyeY - 0.1 * H],
        [g.cx + 0.38 * W, top + 0.1 * H],
        [g.cx + 0.12 * W, top + 0.12 * H],
        [g.cx - 0.16 * W, top + 0.06 * H],
        [g.cx - 0.3 * W, top + 0.02 * H],
        [g.cx - 0.44 * W, top + 0.1 * H],
        [g.cx - 0.48 * W, g.eyeY - 0.12 * H],
      ],
      true,
      0.9,
    );
    const rnd = hairRandom(look, 3);
    const right = strandField(
      look,
      rnd,
      [
        [g.cx - 0.2 * W, top - 0.22 * H],
        [g.cx + 0.4 * W, top - 0.22 * H],
        [g.cx + 0.58 * W, g.eyeY + 0.05 * H],
      ],
      [
        [g.cx - 0.18 * W, top - 0.2 * H],
        [g.cx, top + 0.02 * H],
        [g.cx + 0.16 * W, top + 0.13 * H],
      ],
      { count: 80, jitter: 4 },
    );
    const left = strandField(
      look,
      rnd,
      [
        [g.cx - 0.24 * W, top - 0.22 * H],
        [g.cx - 0.58 * W, top - 0.16 * H],
        [g.cx - 0.56 * W, g.eyeY],
      ],
      [
        [g.cx - 0.22 * W, top - 0.2 * H],
        [g.cx - 0.4 * W, top],
        [g.cx - 0.47 * W, g.eyeY - 0.1 * H],
      ],
      { count: 40, jitter: 4 },
    );
    return castShadow(d) + hairMass(look, "hairFrontClip", d, right + left, [g.cx - 0.3 * W, top - 0.12 * H, 0.2 * W, 0.05 * H]);
  }
  if (look.hairStyle === "bun") {
    // Pulled back: a smooth hairline from temple to temple, strands running to the bun.
    const side: Pt[] = [
      [g.cx - 0.5 * W, g.eyeY - 0.09 * H],
      [g.cx - 0.53 * W, g.eyeY - 0.2 * H],
      [g.cx - 0.49 * W, top - 0.04 * H],
      [g.cx - 0.33 * W, top - 0.15 * H],
    ];
    const line: Pt[] = [
      [g.cx + 0.47 * W, g.eyeY - 0.12 * H],
      [g.cx + 0.42 * W, top + 0.08 * H],
      [g.cx + 0.3 * W, top + 0.02 * H],
      [g.cx + 0.13 * W, top - 0.005 * H],
    ];
    const d = smoothPath(
      [...side, [g.cx, top - 0.19 * H], ...mirror(side, g.cx), ...line, [g.cx, top + 0.015 * H], ...mirror(line, g.cx)],
      true,
      0.8,
    );
    const rnd = hairRandom(look, 4);
    const fields = [-1, 1]
      .map((s) =>
        strandField(
          look,
          rnd,
          [
            [g.cx + s * 0.5 * W, g.eyeY - 0.1 * H],
            [g.cx + s * 0.52 * W, top - 0.1 * H],
            [g.cx + s * 0.05 * W, top - 0.2 * H],
          ],
          [
            [g.cx + s * 0.12 * W, top],
            [g.cx + s * 0.1 * W, top - 0.1 * H],
            [g.cx + s * 0.02 * W, top - 0.2 * H],
          ],
          { count: 55, jitter: 2.5, width: 1 },
        ),
      )
      .join("");
    return castShadow(d, 0.22) + hairMass(look, "hairFrontClip", d, fields, [g.cx - 0.28 * W, top - 0.1 * H, 0.16 * W, 0.06 * H]);
  }
  // Short hair: a cap with a soft hairline and short sideburns.
  const left: Pt[] = [
    [g.cx - 0.47 * W, g.eyeY - 0.02 * H],
    [g.cx - 0.53 * W, top + 0.02 * H],
    [g.cx - 0.4 * W, top - 0.15 * H],
  ];
  const hairline: Pt[] = [
    [g.cx + 0.42 * W, top + 0.04 * H],
    [g.cx + 0.2 * W, top - 0.01 * H],
    [g.cx - 0.05 * W, top + 0.0 * H],
    [g.cx - 0.3 * W, top + 0.02 * H],
    [g.cx - 0.44 * W, top + 0.08 * H],
  ];
  const d = smoothPath([...left, [g.cx, top - 0.2 * H], ...mirror(left, g.cx), [g.cx + 0.44 * W, top + 0.1 * H], ...hairline], true, 0.85);
  // Cropped close: a grain rather than strands, and a hairline that fades into the skin.
  const rnd = hairRandom(look, 5);
  const fields = [-1, 1]
    .map((s) =>
      strandField(
        look,
        rnd,
        [
          [g.cx + s * 0.05 * W, top - 0.2 * H],
          [g.cx + s * 0.35 * W, top - 0.17 * H],
          [g.cx + s * 0.5 * W, top + 0.02 * H],
        ],
        [
          [g.cx + s * 0.02 * W, top - 0.06 * H],
          [g.cx + s * 0.2 * W, top - 0.02 * H],
          [g.cx + s * 0.4 * W, top + 0.06 * H],
        ],
        { count: 45, jitter: 6, width: 0.9 },
      ),
    )
    .join("");
  return castShadow(d, 0.25) + hairMass(look, "hairFrontClip", d, fields, [g.cx - 0.22 * W, top - 0.13 * H, 0.18 * W, 0.05 * H]);
}

/** Points on the ellipse round the head that curly hair fills: from the left temple, over the top, to the right. */
function curlyRing(look: FaceLook, grow: number): Pt[] {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const cy = g.eyeY - 0.12 * H;
  const rx = (0.64 + grow) * W;
  const ry = cy - (g.hairline - (0.21 + grow) * H);
  const out: Pt[] = [];
  for (let i = 0; i <= 12; i++) {
    const a = Math.PI * (1.1 - (1.2 * i) / 12);
    out.push([g.cx + rx * Math.cos(a), cy - ry * Math.sin(a)]);
  }
  return out;
}

/** Curly hair behind the head: a full mass with a scalloped edge of curls. */
export function drawBackCurly(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const ring = curlyRing(look, 0);
  const mass = smoothPath([...ring, [g.cx + 0.5 * W, g.eyeY + 0.1 * H], [g.cx - 0.5 * W, g.eyeY + 0.1 * H]], true, 0.9);
  const curls = ring.map(([x, y], i) => `<circle cx="${x}" cy="${y}" r="${(0.085 + 0.02 * (i % 2)) * W}" fill="${look.hair}"/>`).join("");
  const lights = curlyRing(look, -0.05)
    .map(
      ([x, y], i) =>
        `<path d="M${x - 0.035 * W},${y} q${0.035 * W},${-0.03 * W} ${0.07 * W},0" stroke="${look.hairLight}" stroke-width="2" fill="none" opacity="${i % 2 ? 0.2 : 0.3}" stroke-linecap="round"/>`,
    )
    .join("");
  return `<path d="${mass}" fill="${look.hair}"/>${curls}${lights}`;
}

/** Curly hair in front: a band of curls along the hairline, down to the temples. */
export function drawFrontCurly(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const top = g.hairline;
  const left: Pt[] = [
    [g.cx - 0.52 * W, g.eyeY - 0.04 * H],
    [g.cx - 0.56 * W, top + 0.04 * H],
    [g.cx - 0.42 * W, top - 0.16 * H],
  ];
  const line: Pt[] = [
    [g.cx + 0.45 * W, top + 0.14 * H],
    [g.cx + 0.3 * W, top + 0.05 * H],
    [g.cx, top + 0.02 * H],
    [g.cx - 0.3 * W, top + 0.05 * H],
    [g.cx - 0.45 * W, top + 0.14 * H],
  ];
  const d = smoothPath(
    [
      ...left,
      [g.cx, top - 0.22 * H],
      ...mirror(left, g.cx),
      [g.cx + 0.47 * W, g.eyeY - 0.08 * H],
      ...line,
      [g.cx - 0.47 * W, g.eyeY - 0.08 * H],
    ],
    true,
    0.85,
  );
  const fringe: string[] = [];
  for (let i = 0; i <= 8; i++) {
    const t = i / 8;
    const x = g.cx + (t - 0.5) * 0.92 * W;
    // Lower at the temples, highest in the middle.
    const y = top + 0.02 * H + (Math.abs(t - 0.5) * 2) ** 2 * 0.12 * H;
    const r = (0.055 + 0.012 * (i % 2)) * W;
    fringe.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="${look.hair}"/>`);
    fringe.push(
      `<path d="M${x - r * 0.5},${y - r * 0.1} q${r * 0.5},${-r * 0.5} ${r},0" stroke="${look.hairLight}" stroke-width="2" fill="none" opacity="0.3" stroke-linecap="round"/>`,
    );
  }
  return `<path d="${d}" fill="${look.hair}"/>${fringe.join("")}`;
}

/** The scalp of a bald head, behind the face outline. */
function scalp(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const top = g.hairline;
  const left: Pt[] = [
    [g.cx - 0.5 * W, g.eyeY - 0.02 * H],
    [g.cx - 0.515 * W, top + 0.05 * H],
    [g.cx - 0.45 * W, top - 0.1 * H],
    [g.cx - 0.26 * W, top - 0.185 * H],
  ];
  return smoothPath([...left, [g.cx, top - 0.21 * H], ...mirror(left, g.cx)], true, 0.9);
}

/** Scalp, shaded at the rim like the face, and close-cropped hair over the ears (only outside the face shows). */
export function drawBackBald(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const side: Pt[] = [
    [g.cx - 0.5 * W, g.eyeY + 0.04 * H],
    [g.cx - 0.535 * W, g.eyeY - 0.06 * H],
    [g.cx - 0.535 * W, g.hairline + 0.14 * H],
    [g.cx - 0.47 * W, g.hairline + 0.1 * H],
    [g.cx - 0.44 * W, g.eyeY - 0.05 * H],
  ];
  const colour = mix(look.hair, look.skinShade, 0.3);
  const sides =
    look.age !== undefined && look.age < 40
      ? ""
      : [side, mirror(side, g.cx)]
          .map((pts) => `<path d="${smoothPath(pts, true, 0.8)}" fill="${colour}" opacity="0.85" filter="url(#blur2)"/>`)
          .join("");
  // Shaded only at the sides, like the face's rim there; the crown catches the light.
  return `<linearGradient id="scalpGrad" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${look.skinShade}"/><stop offset="0.14" stop-color="${look.skin}"/><stop offset="0.86" stop-color="${look.skin}"/><stop offset="1" stop-color="${look.skinShade}"/></linearGradient>
<path d="${scalp(look)}" fill="url(#scalpGrad)"/>${sides}`;
}

/**
 * In front of the face: the scalp again, fading out towards the brows so the face outline's
 * shaded rim does not show as a seam, and a soft highlight.
 */
export function drawFrontBald(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const top = g.hairline;
  const fade = `<linearGradient id="scalpFade" gradientUnits="userSpaceOnUse" x1="0" y1="${top - 0.2 * H}" x2="0" y2="${top + 0.12 * H}"><stop offset="0.45" stop-color="${look.skin}"/><stop offset="1" stop-color="${look.skin}" stop-opacity="0"/></linearGradient>`;
  return `<defs>${fade}</defs><g clip-path="url(#faceClip)"><path d="${scalp(look)}" fill="url(#scalpFade)"/></g>
<ellipse cx="${g.cx - 0.12 * W}" cy="${top - 0.1 * H}" rx="${0.16 * W}" ry="${0.045 * H}" fill="#fff" opacity="0.16" filter="url(#blur6)"/>`;
}
