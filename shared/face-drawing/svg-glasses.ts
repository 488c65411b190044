// Glasses for a drawn face: two lenses centred on the eyes, a bridge over the nose and the arms
// running back to the ears; a faint shadow under the frame and a reflection on each lens.
import type { FaceLook, Glasses } from "./svg-face.ts";

export function drawGlasses(look: FaceLook, glasses: Glasses): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  // Lenses a little wider than the eye and centred slightly below it, as glasses sit on the nose.
  const rw = g.eyeW * 0.74;
  const rh = glasses.shape === "round" ? rw * 0.8 : g.eyeH * 1.05 + 3;
  const ly = g.eyeY + g.eyeH * 0.15;
  const stroke = Math.max(3, g.eyeH * 0.2);
  const lens = (ex: number) =>
    glasses.shape === "round"
      ? `M${ex - rw},${ly} a${rw},${rh} 0 1 0 ${2 * rw},0 a${rw},${rh} 0 1 0 ${-2 * rw},0 Z`
      : roundedRect(ex - rw, ly - rh, 2 * rw, 2 * rh, rh * 0.45);
  const lenses = [-1, 1].map((s) => lens(g.cx + s * g.eyeDx));
  // Bridge: from one lens's inner rim to the other's, arching over the nose.
  const inner = g.eyeDx - rw;
  const bridge = `M${g.cx - inner - 1},${ly - rh * 0.35} Q${g.cx},${ly - rh * 0.75} ${g.cx + inner + 1},${ly - rh * 0.35}`;
  const arms = [-1, 1]
    .map((s) => `M${g.cx + s * (g.eyeDx + rw - 1)},${ly - rh * 0.45} L${g.cx + s * 0.5 * g.faceW},${g.eyeY - 0.01 * H}`)
    .join(" ");
  const frame = lenses.join(" ") + " " + bridge + " " + arms;
  const glints = [-1, 1]
    .map((s) => {
      const ex = g.cx + s * g.eyeDx;
      return `<path d="M${ex - rw * 0.55},${ly + rh * 0.25} L${ex - rw * 0.05},${ly - rh * 0.6} L${ex + rw * 0.2},${ly - rh * 0.6} L${ex - rw * 0.3},${ly + rh * 0.25} Z" fill="#fff" opacity="0.22" filter="url(#blur2)"/>`;
    })
    .join("");
  return `<path d="${frame}" stroke="#000" stroke-width="${stroke}" fill="none" opacity="0.16" filter="url(#blur2)" transform="translate(0 ${stroke * 1.6})"/>
<path d="${lenses.join(" ")}" fill="#fff" opacity="0.09"/>${glints}
<path d="${frame}" stroke="${glasses.frame}" stroke-width="${stroke}" fill="none" stroke-linejoin="round" stroke-linecap="round"/>`;
}

function roundedRect(x: number, y: number, w: number, h: number, r: number): string {
  return `M${x + r},${y} H${x + w - r} Q${x + w},${y} ${x + w},${y + r} V${y + h - r} Q${x + w},${y + h} ${x + w - r},${y + h} H${x + r} Q${x},${y + h} ${x},${y + h - r} V${y + r} Q${x},${y} ${x + r},${y} Z`;
}
