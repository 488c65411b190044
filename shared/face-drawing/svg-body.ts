// Neck, shoulders and clothing of a drawn face, lit like the face (key light from the image-left
// above): the head's shadow on the neck, the neck's on the chest, the muscles of the neck and the
// collarbones as soft form, and cloth with folds running from the shoulders to the neckline.
import type { FaceLook } from "./svg-face.ts";
import { blur, softBlob } from "./svg-finish.ts";
import { darken, lighten, mix } from "./palette.ts";
import { mirror, smoothPath, type Pt } from "./svg-kit.ts";

export function drawBody(look: FaceLook): string {
  const g = look.geo;
  const n = g.neckW / 2;
  const neck = smoothPath(
    [
      [g.cx - n, g.mouthY],
      [g.cx - n * 1.02, g.chin + 30],
      [g.cx - n * 1.25, 470],
      [g.cx + n * 1.25, 470],
      [g.cx + n * 1.02, g.chin + 30],
      [g.cx + n, g.mouthY],
    ],
    true,
    0.5,
  );
  const shoulder: Pt[] = [
    [-30, 540],
    [-30, 478],
    [40, 446],
    [g.cx - n - 38, 426],
    [g.cx - n - 6, 420],
  ];
  const dip: Pt[] =
    look.clothStyle === "scoop"
      ? [[g.cx, 468]]
      : [
          [g.cx - 16, 440],
          [g.cx, 462],
          [g.cx + 16, 440],
        ];
  const torso = smoothPath([...shoulder, ...dip, ...mirror(shoulder, g.cx)], true, 0.7);
  const deep = darken(mix(look.skin, look.skinShade, 0.8), 0.15);
  const neckForm = `<clipPath id="neckClip"><path d="${neck}"/></clipPath>
<g clip-path="url(#neckClip)">
${softBlob(g.cx + n * 0.1, g.chin + 10, n * 1.3, 28, deep, 0.75, 6)}
${softBlob(g.cx + n * 0.95, (g.mouthY + 480) / 2, n * 0.6, (480 - g.mouthY) / 2, deep, 0.45, 9)}
${[-1, 1].map((s) => `<path d="M${g.cx + s * n * 0.75},${g.chin + 8} Q${g.cx + s * n * 0.45},${g.chin + 45} ${g.cx + s * n * 0.12},462" stroke="${s < 0 ? lighten(look.skin, 0.25) : deep}" stroke-width="6" fill="none" opacity="0.3" filter="${blur(3)}"/>`).join("")}
<ellipse cx="${g.cx}" cy="458" rx="${n * 0.22}" ry="10" fill="${deep}" opacity="0.35" filter="${blur(3)}"/>
</g>`;
  // Collarbones show above a scoop neckline: a lit ridge with shade under it, each side.
  const collarbones =
    look.clothStyle !== "scoop"
      ? ""
      : [-1, 1]
          .map(
            (s) =>
              `<path d="M${g.cx + s * 14},452 Q${g.cx + s * (n + 10)},444 ${g.cx + s * (n + 40)},432" stroke="${lighten(look.skin, 0.2)}" stroke-width="3" fill="none" opacity="0.35" filter="${blur(2)}"/>
<path d="M${g.cx + s * 14},457 Q${g.cx + s * (n + 10)},449 ${g.cx + s * (n + 40)},438" stroke="${deep}" stroke-width="3" fill="none" opacity="0.3" filter="${blur(2)}"/>`,
          )
          .join("");
  const chest =
    look.clothStyle === "scoop"
      ? `<path d="${smoothPath(
          [
            [g.cx - n - 40, 424],
            [g.cx - n - 6, 421],
            [g.cx, 470],
            [g.cx + n + 6, 421],
            [g.cx + n + 40, 424],
            [g.cx + n + 40, 520],
            [g.cx - n - 40, 520],
          ],
          true,
          0.5,
        )}" fill="url(#skin)"/>`
      : "";
  return `<path d="${neck}" fill="url(#skin)"/>${chest}
${neckForm}${collarbones}
<clipPath id="torsoClip"><path d="${torso}"/></clipPath>
<path d="${torso}" fill="url(#cloth)"/>
${clothFolds(look, n)}
${collar(look, n)}`;
}

/** Folds and light on the cloth, clipped to the torso. */
function clothFolds(look: FaceLook, n: number): string {
  const g = look.geo;
  const dark = darken(look.clothShade, 0.35);
  const light = lighten(look.cloth, 0.3);
  const fold = (d: string, colour: string, width: number, o: number, b: number) =>
    `<path d="${d}" stroke="${colour}" stroke-width="${width}" fill="none" opacity="${o}" filter="${blur(b)}"/>`;
  return `<g clip-path="url(#torsoClip)">
${softBlob(90, 450, 110, 34, light, 0.35, 14)}
${softBlob(g.cx, 478, n * 1.3, 22, dark, 0.3, 12)}
${softBlob(g.cx + n + 160, 470, 100, 50, dark, 0.35, 14)}
${fold(`M${g.cx - n - 30},436 Q${g.cx - n - 10},470 ${g.cx - n - 40},520`, dark, 7, 0.4, 5)}
${fold(`M${g.cx - n - 24},440 Q${g.cx - n - 2},468 ${g.cx - n - 26},520`, light, 4, 0.25, 3)}
${fold(`M${g.cx + n + 30},436 Q${g.cx + n + 12},470 ${g.cx + n + 44},520`, dark, 8, 0.45, 5)}
${fold(`M70,470 Q120,490 150,520`, dark, 10, 0.3, 6)}
${fold(`M${512 - 70},470 Q${512 - 120},490 ${512 - 150},520`, dark, 10, 0.35, 6)}
<rect x="0" y="400" width="512" height="112" fill="url(#clothTile)" opacity="0.2"/>
</g>`;
}

function collar(look: FaceLook, n: number): string {
  const g = look.geo;
  if (look.clothStyle !== "collar") {
    // A scoop neckline: a rolled hem, lit on top.
    const hem = smoothPath(
      [
        [g.cx - n - 6, 421],
        [g.cx, 470],
        [g.cx + n + 6, 421],
      ],
      false,
    );
    return `<path d="${hem}" stroke="${darken(look.clothShade, 0.2)}" stroke-width="6" fill="none" filter="${blur(1)}"/>
<path d="${hem}" stroke="${lighten(look.cloth, 0.25)}" stroke-width="2" fill="none" opacity="0.5" transform="translate(0 2)"/>`;
  }
  const flap = (s: number) =>
    smoothPath(
      [
        [g.cx - s * (n + 12), 416],
        [g.cx - s * 5, 460],
        [g.cx - s * 30, 482],
        [g.cx - s * (n + 34), 444],
      ],
      true,
      0.3,
    );
  return [1, -1]
    .map(
      (s) => `<path d="${flap(s)}" fill="#000" opacity="0.3" filter="${blur(3)}" transform="translate(${-s * 2} 4)"/>
<path d="${flap(s)}" fill="${s > 0 ? lighten(look.cloth, 0.12) : look.cloth}"/>
<path d="${flap(s)}" fill="none" stroke="${look.clothShade}" stroke-width="1.5" opacity="0.7"/>`,
    )
    .join("\n");
}
