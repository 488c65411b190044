// Implements: finding what makes a photo hard to animate (issue 25 "Bad input"): a beard or
// moustache over the lips, something covering a mouth corner (a hand), glasses, a strong side
// light, a face turned away, a very small face. Measured on the framed face (output pixels and
// its mesh), each finding lowers how much the renderer moves that face (FaceAnchors `motion`,
// box/render/README.md "Hard photos") and says in plain words what the avatar will not do.
import type { MotionLimits } from "../render/motion-limits.ts";
import type { Point } from "../render/prepared-face.ts";
import { MESH } from "./mesh-anchors.ts";

/** What the framed face shows, besides its pixels and mesh. */
export interface HardPhotoInput {
  /** The framed face, RGBA at `size` x `size`. */
  rgba: Uint8Array;
  size: number;
  /** Its mesh in output pixels (478 points). */
  mesh: Point[];
  /** Yaw from the photo's mesh (meshYaw: half face widths; past about 0.9 from some 30 degrees). */
  yaw: number;
  /** The face's height in the photo, hairline to chin, in photo pixels. */
  faceHeightInPhoto: number;
}

export interface HardPhotoFinding {
  kind: "lips-covered" | "mouth-corner-covered" | "glasses" | "side-light" | "turned" | "small";
  /** For the preparation note: what the avatar will not do, in plain words. */
  note: string;
}

export interface HardPhotoReport {
  findings: HardPhotoFinding[];
  /** Undefined when nothing was found (the renderer moves the face fully). */
  motion?: MotionLimits;
  /** The measures behind the findings (for tests and tuning), each on its threshold's scale. */
  figures: Record<string, number>;
}

// Mesh points used below (MediaPipe FaceMesh indices).
const NOSE_RIDGE = 5; // just above the tip: lit like the middle of the face, never hairy
const NOSE_BASE = 2;
const UPPER_LIP_TOP = 0;
const LOWER_LIP_BOTTOM = 17;
const BRIDGE = 168; // between the eyes
const CHEEKS = [50, 280]; // the middle of each cheek (person's right, left)

const luma = (px: Uint8Array, i: number) => 0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2];

/** Luma over the pixels of a box around `c` (half sides `rx`, `ry`), clipped to the frame. */
function patch(inp: HardPhotoInput, c: Point, rx: number, ry: number): number[] {
  const out: number[] = [];
  const { size, rgba } = inp;
  const x0 = Math.max(0, Math.round(c.x - rx)),
    x1 = Math.min(size - 1, Math.round(c.x + rx));
  const y0 = Math.max(0, Math.round(c.y - ry)),
    y1 = Math.min(size - 1, Math.round(c.y + ry));
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) out.push(luma(rgba, (y * size + x) * 4));
  return out;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : 0;
}

/** Spread of values: the distance between the 20th and 80th percentiles. */
function spread(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length * 0.8)] - s[Math.floor(s.length * 0.2)] : 0;
}

const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/** Measures the photo's hard conditions; every figure is relative to the face's own skin and size. */
export function assessHardPhoto(inp: HardPhotoInput): HardPhotoReport {
  const m = inp.mesh;
  const [cornerR, cornerL] = MESH.mouthCorners.map((i) => m[i]);
  const mouthW = Math.hypot(cornerL.x - cornerR.x, cornerL.y - cornerR.y);
  const unit = mouthW / 10; // patch sizes in tenths of a mouth width
  const skinLuma = Math.max(1, median(patch(inp, m[NOSE_RIDGE], unit, unit)));
  const findings: HardPhotoFinding[] = [];
  const limits: MotionLimits = { mouth: 1, head: 1, brows: 1 };
  const lower = (k: keyof MotionLimits, v: number) => (limits[k] = Math.min(limits[k], v));

  // Hair over the upper lip or the chin, against the nose ridge: dense hair is simply dark,
  // sparse hair darkish and full of strands.
  const philtrum = patch(inp, mid(m[NOSE_BASE], m[UPPER_LIP_TOP]), 2.5 * unit, 0.5 * unit);
  const chin = patch(inp, { x: m[LOWER_LIP_BOTTOM].x, y: m[LOWER_LIP_BOTTOM].y + 1.2 * unit }, 2.5 * unit, 0.6 * unit);
  const figures: Record<string, number> = {
    philtrumLuma: median(philtrum) / skinLuma,
    philtrumSpread: spread(philtrum) / skinLuma,
    chinLuma: median(chin) / skinLuma,
    chinSpread: spread(chin) / skinLuma,
  };
  const hairy = (v: number[]) => median(v) < 0.45 * skinLuma || (median(v) < 0.6 * skinLuma && spread(v) > 0.15 * skinLuma);
  if (hairy(philtrum) || hairy(chin)) {
    findings.push({
      kind: "lips-covered",
      note: "a beard or moustache covers the lips; the avatar's mouth moves less so the hair does not stretch",
    });
    lower("mouth", 0.55);
  }

  // Something over one mouth corner: the lips' edges and their shadows (texture, against the
  // local brightness so a side light does not count) are there at one corner and not the other.
  const sides = [cornerTexture(inp, cornerR, 1.5 * unit), cornerTexture(inp, cornerL, 1.5 * unit)];
  figures.cornerTextureRatio = Math.min(...sides) / Math.max(...sides, 1e-6);
  if (figures.cornerTextureRatio < 0.45) {
    findings.push({
      kind: "mouth-corner-covered",
      note: "something covers a corner of the mouth (a hand?); the avatar's mouth moves less so it does not tear",
    });
    lower("mouth", 0.45);
    lower("head", 0.5);
  }

  // Glasses: a thin dark line across the bridge of the nose between the eyes.
  const bridgeRows = rowMeans(inp, m[BRIDGE], 0.8 * unit, 3 * unit);
  figures.bridgeDip = Math.min(...bridgeRows) / Math.max(1, median(bridgeRows));
  if (figures.bridgeDip < 0.55) {
    findings.push({ kind: "glasses", note: "glasses were found; the brows move less so the frames do not bend" });
    lower("brows", 0.3);
  }

  // Strong side light: one cheek far darker than the other.
  const [cheekR, cheekL] = CHEEKS.map((i) => median(patch(inp, m[i], unit, unit)));
  figures.lightRatio = Math.min(cheekR, cheekL) / Math.max(cheekR, cheekL, 1);
  if (figures.lightRatio < 0.55) {
    findings.push({
      kind: "side-light",
      note: "the light falls hard from one side; the painted inside of the mouth is lit evenly, so the mouth opens less",
    });
    lower("mouth", 0.75);
  }

  // Turned away: the warp is built for a face seen from the front.
  const turn = Math.abs(inp.yaw);
  figures.yaw = turn;
  figures.faceHeightInPhoto = inp.faceHeightInPhoto;
  if (turn > 0.85) {
    findings.push({ kind: "turned", note: "being turned, the head and mouth move less so the far side does not smear" });
    lower("mouth", 0.85 - 0.5 * clamp01((turn - 0.85) / 0.6));
    lower("head", 0.6);
  }

  // A very small face: its mesh is a few pixels off, so the lips' edges are not where the warp expects.
  if (inp.faceHeightInPhoto < 110) {
    findings.push({
      kind: "small",
      note: "the face is very small in the photo; the mouth and head move less because its lips could not be placed exactly",
    });
    lower("mouth", 0.7);
    lower("head", 0.7);
  }

  return findings.length ? { findings, motion: limits, figures } : { findings, figures };
}

/** Mean luma gradient over a box around a mouth corner, relative to the box's mean luma. */
function cornerTexture(inp: HardPhotoInput, c: Point, r: number): number {
  const { size, rgba } = inp;
  let grad = 0,
    sum = 0;
  const x0 = Math.max(1, Math.round(c.x - r)),
    x1 = Math.min(size - 2, Math.round(c.x + r));
  const y0 = Math.max(1, Math.round(c.y - r)),
    y1 = Math.min(size - 2, Math.round(c.y + r));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const i = (y * size + x) * 4;
      const v = luma(rgba, i);
      grad += Math.abs(luma(rgba, i + 4) - v) + Math.abs(luma(rgba, i + size * 4) - v);
      sum += v;
    }
  }
  return grad / Math.max(sum, 1);
}

/** Mean luma of each row of a box around `c` (half sides `rx`, `ry`). */
function rowMeans(inp: HardPhotoInput, c: Point, rx: number, ry: number): number[] {
  const rows: number[] = [];
  for (let dy = -Math.round(ry); dy <= Math.round(ry); dy++) {
    const row = patch(inp, { x: c.x, y: c.y + dy }, rx, 0);
    if (row.length) rows.push(row.reduce((s, v) => s + v, 0) / row.length);
  }
  return rows;
}
