// Where the built-in face warp can change a frame: the bounding box of every displacement term
// except breathing (which moves whole rows below the chin and is applied outside the box by
// face-crop.ts), for any expression and for head motion inside an envelope. The renderer runs
// the model on this box only. Mirrors terms-face.ts, terms-mouth.ts and cavity.ts; the crop
// test in face-renderer.test.ts fails if a term reaches past it.
import type { FaceAnchors, Point } from "../prepared-face.ts";
import { BREATHE, HEAD } from "./terms-face.ts";
import { MOUTH } from "./terms-mouth.ts";

/** Head motion the crop is valid for; frames beyond it are rendered on the full frame. */
export interface CropEnvelope {
  /** Largest |headX| and |headY|, px. */
  shift: number;
  /** Largest |headRoll|, radians. */
  roll: number;
}

/** Idle motion is ±3 px and ±0.018 rad (box/live/idle-animator.ts); twice that, with room. */
export const DEFAULT_CROP_ENVELOPE: CropEnvelope = { shift: 8, roll: 0.06 };

/** Half-open pixel box [x0, x1) x [y0, y1); every edge even so chroma maps exactly. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface CropBoxes {
  /** What the model runs on. */
  crop: Box;
  /** The part of the crop whose rendered pixels are kept (the rest is the sampling margin). */
  paste: Box;
}

/** A displacement below this (px) moves no pixel by a visible level; Gaussian tails end here. */
const EPS = 0.004;

interface Span {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** How far out a Gaussian exp(-(r/s)^2) with amplitude `amp` px stays above EPS, in units of s. */
const gaussReach = (amp: number) => Math.sqrt(Math.log(Math.max(amp / EPS, 1)));

/** Smoothstep weight 3t^2 - 2t^3 at t = d / len, clamped. */
function ramp(d: number, len: number): number {
  const t = Math.min(1, Math.max(0, d / len));
  return t * t * (3 - 2 * t);
}

/** The largest amount a fade of length `len` moves a pixel past its own distance from the fade's outer edge. */
function fadeOverreach(len: number, motion: number): number {
  let worst = 0;
  for (let i = 0; i <= 64; i++) {
    const d = (len * i) / 64;
    worst = Math.max(worst, ramp(d, len) * motion - d);
  }
  return worst;
}

const even = { down: (v: number) => 2 * Math.floor(v / 2), up: (v: number) => 2 * Math.ceil(v / 2) };

export function warpCropBoxes(a: FaceAnchors, width: number, height: number, env = DEFAULT_CROP_ENVELOPE): CropBoxes {
  const { x: fx, width: fW, height: fH } = a.face;
  const chin = a.face.y + fH / 2;
  const pivot = { x: fx, y: chin + fH * 0.25 };
  // How far an anchor the expression terms follow moves with the head (shift, then roll about
  // the pivot: sin r <= r, 1 - cos r <= r^2 / 2), plus a pixel for rounding.
  const r = Math.abs(env.roll);
  const reach = (p: Point) => {
    const [qx, qy] = [Math.abs(p.x - pivot.x), Math.abs(p.y - pivot.y)];
    return { x: env.shift + r * qy + (r * r * qx) / 2 + 1, y: env.shift + r * qx + (r * r * qy) / 2 + 1 };
  };
  const spans: Span[] = [];
  const around = (p: Point, dx0: number, dx1: number, dy0: number, dy1: number) => {
    const m = reach(p);
    spans.push({ x0: p.x - dx0 - m.x, x1: p.x + dx1 + m.x, y0: p.y - dy0 - m.y, y1: p.y + dy1 + m.y });
  };

  // Head (hair included) and neck: fixed to the resting anchors; the head reaches the frame top.
  spans.push({ x0: fx - fW * HEAD.cols[1], x1: fx + fW * HEAD.cols[1], y0: -Infinity, y1: chin + fH * HEAD.rows[1] });
  spans.push({
    x0: fx - fW * HEAD.neckCols[1],
    x1: fx + fW * HEAD.neckCols[1],
    y0: chin + fH * HEAD.rows[0],
    y1: chin + fH * HEAD.neckRows[1],
  });

  // Mouth (terms-mouth.ts), widest when stretched: half width up to 0.5 * 1.21 mouth widths.
  const mW = a.mouth.width;
  const hw = 0.5 * mW * (1 + 0.14 + 0.07);
  const drop = MOUTH.drop * mW;
  const lipTail = Math.log(Math.max((MOUTH.drop * mW) / EPS, 1)) / 2; // the seam's sigmoid(2r)
  around(a.mouth, hw, hw, 0.55 * mW, 0.95 * mW + lipTail);
  // Jaw: down to the fold under the dropped chin; the corners' sideways stretch stops at the
  // neck fade; both below the (moved) chin.
  const chinReach = reach({ x: fx, y: chin }).y;
  const neckEnd = chin + fH * MOUTH.neck[1] + chinReach;
  const jawEnd = chin + fH * (MOUTH.jawCap + MOUTH.fold[1]) + chinReach;
  const jawX = fW * MOUTH.jawCols[1] + reach(a.mouth).x;
  spans.push({ x0: a.mouth.x - jawX, x1: a.mouth.x + jawX, y0: a.mouth.y, y1: jawEnd });
  // Corners in/out: Gaussian rows about drop/2 with width 0.45 mW + drop/2; amplitude <= 1.9 hw / 3.
  const acrossS = 0.45 * mW + drop / 2;
  const acrossR = acrossS * gaussReach((1.9 * hw) / 3);
  around(a.mouth, 1.9 * hw, 1.9 * hw, acrossR, drop / 2 + acrossR);
  spans[spans.length - 1].y1 = Math.min(spans[spans.length - 1].y1, neckEnd);
  // Corners up/down: Gaussian rows of width 0.42 mW, columns faded out at cornerFade half widths.
  const smileR = 0.42 * mW * gaussReach(MOUTH.smileLift * mW);
  const smileX = MOUTH.cornerFade[1] * hw;
  around(a.mouth, smileX, smileX, smileR, smileR);
  // Mouth interior paint crop (cavity.ts).
  around(a.mouth, hw + 6, hw + 6, 0.3 * mW + 6, 0.62 * mW + 6);

  // Eyes (blink, squint) and brows (terms-face.ts).
  for (const [e, b] of [
    [a.leftEye, a.leftBrow],
    [a.rightEye, a.rightBrow],
  ] as const) {
    around(e, 0.75 * e.width, 0.75 * e.width, 1.12 * e.height, 2.3 * e.height);
    around(b, 1.15 * e.width, 1.15 * e.width, 2.4 * e.height, Math.max(e.y - b.y, 0.6 * e.height));
  }

  const x0 = Math.min(...spans.map((s) => s.x0)) - 1;
  const x1 = Math.max(...spans.map((s) => s.x1)) + 1;
  const y0 = Math.min(...spans.map((s) => s.y0)) - 1;
  const y1 = Math.max(...spans.map((s) => s.y1)) + 1;
  const clampBox = (b: Span): Box => ({
    x0: Math.max(0, even.down(b.x0)),
    x1: Math.min(width, even.up(b.x1)),
    y0: Math.max(0, even.down(b.y0)),
    y1: Math.min(height, even.up(b.y1)),
  });
  const paste = clampBox({ x0, x1, y0, y1 });

  // Margin: pixels just inside the paste box sample up to this far outside it (the head's and
  // neck's fades carry part of the head motion; breathing pulls rows up from below).
  const farthest = Math.max(
    ...[
      [0, 0],
      [width, 0],
      [0, height],
      [width, height],
    ].map(([x, y]) => Math.hypot(x - pivot.x, y - pivot.y)),
  );
  const headMotion = env.shift * Math.SQRT2 + Math.abs(env.roll) * farthest;
  const margin = even.up(
    2 +
      Math.max(
        fadeOverreach(fW * (HEAD.cols[1] - HEAD.cols[0]), headMotion),
        fadeOverreach(fH * (HEAD.neckRows[1] - HEAD.neckRows[0]), headMotion),
        BREATHE.lift * fH,
      ),
  );
  const crop = clampBox({ x0: paste.x0 - margin, x1: paste.x1 + margin, y0: paste.y0 - margin, y1: paste.y1 + margin });
  return { crop, paste };
}
