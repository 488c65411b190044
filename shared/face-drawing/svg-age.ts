// Age and skin marks for a drawn face: lines that deepen with the years (nose to mouth from about
// 40, forehead and eye corners from about 45, under the eyes from about 55), and freckles.
// Drawn over the cheeks, under the nose and eyes, clipped to the face.
import type { FaceLook } from "./svg-face.ts";
import { seededRandom } from "../util/seeded-random.ts";

/** 0 below `from` years, rising to 1 at `full`. */
const ramp = (age: number, from: number, full: number) => Math.max(0, Math.min(1, (age - from) / (full - from)));

function line(d: string, colour: string, opacity: number, width: number): string {
  return opacity <= 0.01
    ? ""
    : `<path d="${d}" stroke="${colour}" stroke-width="${width}" fill="none" stroke-linecap="round" opacity="${opacity.toFixed(2)}"/>`;
}

export function drawAgeLines(look: FaceLook): string {
  const age = look.age ?? 30;
  const g = look.geo;
  const H = g.chin - g.hairline;
  const W = g.faceW;
  const c = look.skinShade;
  const smile = look.mood === "smile" ? 0.2 : 0;
  const fold = Math.min(1, ramp(age, 40, 78) + smile);
  const brow = ramp(age, 42, 75);
  const eyes = ramp(age, 45, 75);
  const bags = ramp(age, 52, 80);
  const out: string[] = [];
  for (const s of [-1, 1]) {
    // Nose to mouth: from beside the nostril wing to beyond the mouth corner.
    const nx = g.cx + s * g.noseW * 0.55;
    const mx = g.cx + s * (g.mouthW / 2 + 7);
    out.push(
      line(
        `M${nx},${g.noseY - g.noseW * 0.1} Q${g.cx + s * (g.mouthW / 2 + 14)},${g.noseY + 0.06 * H} ${mx},${g.mouthY + 0.05 * H}`,
        c,
        0.55 * fold,
        2.6,
      ),
    );
    // Eye corners: three short lines fanning out.
    const ex = g.cx + s * (g.eyeDx + g.eyeW / 2 + 5);
    for (const k of [-1, 0, 1]) {
      out.push(line(`M${ex},${g.eyeY + k * 4} l${s * 10},${k * 5 - 1}`, c, 0.5 * eyes, 1.6));
    }
    // Under the eyes.
    const ux = g.cx + s * g.eyeDx;
    out.push(
      line(
        `M${ux - g.eyeW * 0.38},${g.eyeY + g.eyeH * 0.85} Q${ux},${g.eyeY + g.eyeH * 1.45} ${ux + g.eyeW * 0.38},${g.eyeY + g.eyeH * 0.85}`,
        c,
        0.45 * bags,
        1.8,
      ),
    );
  }
  // Forehead: two or three shallow arcs above the brows.
  const rows = age >= 60 ? 3 : 2;
  for (let i = 0; i < rows; i++) {
    const y = g.browY - 0.07 * H - i * 0.05 * H;
    out.push(line(`M${g.cx - 0.24 * W},${y + 3} Q${g.cx},${y - 5} ${g.cx + 0.24 * W},${y + 3}`, c, 0.4 * brow * (1 - i * 0.2), 1.8));
  }
  const marks = out.join("");
  return marks ? `<g clip-path="url(#faceClip)">${marks}</g>` : "";
}

export function drawFreckles(look: FaceLook): string {
  const g = look.geo;
  const H = g.chin - g.hairline;
  const rnd = seededRandom((look.detailSeed ?? 1) * 31 + 5);
  const dots: string[] = [];
  for (let i = 0; i < 34; i++) {
    // Across the nose and the upper cheeks.
    const s = i % 2 ? 1 : -1;
    const x = g.cx + s * (4 + rnd() * 0.34 * g.faceW);
    const y = g.eyeY + 0.09 * H + rnd() * 0.12 * H - Math.abs(x - g.cx) * 0.05;
    const r = 1 + rnd() * 1.3;
    dots.push(
      `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(2)}" fill="${look.skinShade}" opacity="${(0.45 + rnd() * 0.3).toFixed(2)}"/>`,
    );
  }
  return `<g clip-path="url(#faceClip)">${dots.join("")}</g>`;
}
