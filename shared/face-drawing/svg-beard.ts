// Facial hair for a drawn face: a full beard (sideburns, jaw, chin) or a goatee, drawn under the
// lips, and a moustache drawn over the top of the upper lip. The lip seam stays visible.
import type { FacialHair, FaceLook } from "./svg-face.ts";
import { moodShape } from "./svg-features.ts";
import { mirror, smoothPath, type Pt } from "./svg-kit.ts";
import { seededRandom } from "../util/seeded-random.ts";

/** Short strands inside a shape: the texture that tells hair from a flat patch. */
function strands(
  look: FaceLook,
  hair: FacialHair,
  clipId: string,
  box: [number, number, number, number],
  count: number,
  len: number,
): string {
  const rnd = seededRandom((look.detailSeed ?? 1) * 7919 + count);
  const [x0, y0, x1, y1] = box;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const x = x0 + rnd() * (x1 - x0);
    const y = y0 + rnd() * (y1 - y0);
    // Strands fall downwards and outwards from the middle of the face, each a little curled.
    const l = len * (0.6 + rnd() * 0.7);
    const dx = ((x - look.geo.cx) / (x1 - x0)) * l * 0.9 + (rnd() - 0.5) * l * 0.3;
    const bend = (rnd() - 0.5) * l * 0.6;
    const colour = i % 3 === 0 ? "#000" : hair.light;
    const opacity = i % 3 === 0 ? 0.16 : 0.3;
    const f = (n: number) => n.toFixed(1);
    out.push(
      `<path d="M${f(x)},${f(y)} q${f(dx / 2 + bend)},${f(l / 2)} ${f(dx)},${f(l)}" stroke="${colour}" stroke-width="1.5" fill="none" opacity="${opacity}" stroke-linecap="round"/>`,
    );
  }
  return `<g clip-path="url(#${clipId})">${out.join("")}</g>`;
}

/** A full beard or a goatee: under the nose, lips and moustache, over the face and the neck. */
export function drawFullBeard(look: FaceLook, hair: FacialHair): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const mw = g.mouthW;
  let outline: string;
  let box: [number, number, number, number];
  if (hair.style === "full") {
    const left: Pt[] = [
      [g.cx - 0.515 * W, g.eyeY + 0.0 * H],
      [g.cx - 0.51 * W, g.mouthY - 0.07 * H],
      [g.cx - g.jawW * 0.57, g.mouthY + 0.13 * H],
      [g.cx - 0.22 * W, g.chin + 0.05 * H],
    ];
    const innerRight: Pt[] = [
      [g.cx + 0.45 * W, g.eyeY + 0.08 * H],
      [g.cx + 0.37 * W, g.mouthY - 0.09 * H],
      [g.cx + 0.23 * W, g.noseY + 0.07 * H],
      [g.cx + 0.08 * W, g.noseY + 0.05 * H],
    ];
    outline = smoothPath(
      [...left, [g.cx, g.chin + 0.085 * H], ...mirror(left, g.cx), ...innerRight, [g.cx, g.noseY + 0.06 * H], ...mirror(innerRight, g.cx)],
      true,
      0.8,
    );
    box = [g.cx - 0.52 * W, g.noseY, g.cx + 0.52 * W, g.chin + 0.08 * H];
  } else {
    const left: Pt[] = [
      [g.cx - mw * 0.56, g.mouthY - 0.01 * H],
      [g.cx - mw * 0.52, g.mouthY + 0.1 * H],
      [g.cx - 0.13 * W, g.chin + 0.01 * H],
    ];
    outline = smoothPath(
      [
        ...left,
        [g.cx, g.chin + 0.03 * H],
        ...mirror(left, g.cx),
        [g.cx + mw * 0.3, g.mouthY + 0.04 * H],
        [g.cx, g.mouthY + 0.05 * H],
        [g.cx - mw * 0.3, g.mouthY + 0.04 * H],
      ],
      true,
      0.8,
    );
    box = [g.cx - mw * 0.6, g.mouthY, g.cx + mw * 0.6, g.chin + 0.03 * H];
  }
  const id = "beardClip";
  return `<clipPath id="${id}"><path d="${outline}"/></clipPath>
<path d="${outline}" fill="${hair.color}" filter="url(#blur2)"/>
<ellipse cx="${g.cx}" cy="${g.mouthY + 0.12 * H}" rx="${0.2 * W}" ry="${0.06 * H}" fill="${hair.light}" opacity="0.18" filter="url(#blur6)" clip-path="url(#${id})"/>
${strands(look, hair, id, box, hair.style === "full" ? 90 : 36, 9)}`;
}

/** A moustache from under the nose to just past the corners of the mouth, over the upper lip's top. */
export function drawMoustache(look: FaceLook, hair: FacialHair): string {
  const g = look.geo;
  const { cx, mouthY: my, mouthW: mw, noseY: ny, noseW: nw } = g;
  const ul = mw * 0.15 * moodShape(look).lips;
  const lift = moodShape(look).corner * mw;
  // A band resting on the upper lip, full in the middle, tapering to just past the corners.
  const top: Pt[] = [
    [cx - mw * 0.14, ny + nw * 0.34],
    [cx - mw * 0.38, my - ul * 1.75 - lift * 0.5],
    [cx - mw * 0.54, my - ul * 0.9 - lift],
  ];
  const bottom: Pt[] = [
    [cx - mw * 0.6, my + 1 - lift],
    [cx - mw * 0.42, my - ul * 0.5 - lift * 0.6],
    [cx - mw * 0.18, my - ul * 0.72],
  ];
  const outline = smoothPath(
    [...top, ...bottom, [cx, my - ul * 0.62], ...mirror(bottom, cx), ...mirror(top, cx), [cx, ny + nw * 0.4]],
    true,
    0.85,
  );
  const id = "moustacheClip";
  return `<clipPath id="${id}"><path d="${outline}"/></clipPath>
<path d="${outline}" fill="${hair.color}" filter="url(#blur2)"/>
${strands(look, hair, id, [cx - mw * 0.6, ny + nw * 0.2, cx + mw * 0.6, my], 40, 6)}`;
}
