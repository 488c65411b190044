// Implements: the face track of an uploaded video (issue 10 item 3; docs/architecture.md "A video face":
// landmark jitter): gaps filled, the mesh smoothed over time without dragging fast moves,
// the idle loop chosen (mouth closed, little motion, slow turnarounds), and one crop for the whole
// loop so the background never swims. Pure functions over meshes; no I/O.
import type { Point } from "../render/prepared-face.ts";
import type { Framing } from "./framing.ts";
import { FrameTransform } from "./frame-warp.ts";
import { anchorsFromMesh, MESH, meshRoll } from "./mesh-anchors.ts";

/** Points of the mesh proper (the iris points are carried along but not fitted). */
const FIT_POINTS = 468;

/** x' = a·x − b·y + tx, y' = b·x + a·y + ty: scale, turn and shift in one. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

const applySim = (s: Similarity, p: Point): Point => ({ x: s.a * p.x - s.b * p.y + s.tx, y: s.b * p.x + s.a * p.y + s.ty });

function invertSim(s: Similarity, p: Point): Point {
  const d = s.a * s.a + s.b * s.b;
  const x = p.x - s.tx;
  const y = p.y - s.ty;
  return { x: (s.a * x + s.b * y) / d, y: (-s.b * x + s.a * y) / d };
}

/** Least-squares similarity taking `from` onto `to` (over the mesh points; Procrustes in 2-D). */
export function fitSimilarity(from: Point[], to: Point[]): Similarity {
  const n = Math.min(FIT_POINTS, from.length, to.length);
  let fx = 0,
    fy = 0,
    tx = 0,
    ty = 0;
  for (let i = 0; i < n; i++) (fx += from[i].x), (fy += from[i].y), (tx += to[i].x), (ty += to[i].y);
  fx /= n;
  fy /= n;
  tx /= n;
  ty /= n;
  let num = 0,
    cross = 0,
    den = 0;
  for (let i = 0; i < n; i++) {
    const x = from[i].x - fx,
      y = from[i].y - fy;
    const u = to[i].x - tx,
      v = to[i].y - ty;
    num += x * u + y * v;
    cross += x * v - y * u;
    den += x * x + y * y;
  }
  const a = num / den;
  const b = cross / den;
  return { a, b, tx: tx - (a * fx - b * fy), ty: ty - (b * fx + a * fy) };
}

/**
 * Quadratic Savitzky–Golay smoothing over 2·half+1 samples. A local parabola keeps steady
 * motion, accelerations and peaks where they are (a moving average would drag them). Near the
 * ends the parabola is fitted to the first (last) 2·half+1 samples and evaluated there, so the
 * first and last frames of a loop keep their anchors on the footage even mid-move.
 */
export function savitzkyGolay(values: ArrayLike<number>, half: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  const m = Math.max(0, Math.min(half, Math.floor((n - 1) / 2)));
  if (m === 0) {
    for (let i = 0; i < n; i++) out[i] = values[i];
    return out;
  }
  const norm = (2 * m - 1) * (2 * m + 1) * (2 * m + 3);
  const c0 = 3 * (3 * m * m + 3 * m - 1);
  const w = Array.from({ length: 2 * m + 1 }, (_, k) => (c0 - 15 * (k - m) ** 2) / norm);
  for (let i = m; i < n - m; i++) {
    let s = 0;
    for (let k = -m; k <= m; k++) s += w[k + m] * values[i + k];
    out[i] = s;
  }
  const head = quadraticFit(values, 0, 2 * m + 1);
  const tail = quadraticFit(values, n - 2 * m - 1, 2 * m + 1);
  for (let i = 0; i < m; i++) {
    out[i] = head(i);
    out[n - 1 - i] = tail(n - 1 - i);
  }
  return out;
}

/** Least-squares parabola through values[from .. from+len-1], as a function of the index. */
function quadraticFit(values: ArrayLike<number>, from: number, len: number): (i: number) => number {
  const c = from + (len - 1) / 2; // centred, for a well-conditioned system
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    s4 = 0,
    t0 = 0,
    t1 = 0,
    t2 = 0;
  for (let k = from; k < from + len; k++) {
    const x = k - c;
    const y = values[k];
    s0 += 1;
    s1 += x;
    s2 += x * x;
    s3 += x * x * x;
    s4 += x * x * x * x;
    t0 += y;
    t1 += x * y;
    t2 += x * x * y;
  }
  // Normal equations [s0 s1 s2; s1 s2 s3; s2 s3 s4]·[a b c] = [t0 t1 t2], by Cramer's rule.
  const det3 = (a: number[]) =>
    a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
  const d = det3([s0, s1, s2, s1, s2, s3, s2, s3, s4]);
  const a0 = det3([t0, s1, s2, t1, s2, s3, t2, s3, s4]) / d;
  const a1 = det3([s0, t0, s2, s1, t1, s3, s2, t2, s4]) / d;
  const a2 = det3([s0, s1, t0, s1, s2, t1, s2, s3, t2]) / d;
  return (i) => a0 + a1 * (i - c) + a2 * (i - c) ** 2;
}

export interface SmoothOptions {
  /**
   * Half window (frames) for the head's rigid motion (fitted on 468 points, so little noise); default
   * 4 (±160 ms): with 2, a face panned smoothly across a test video still shook by ±2 px from frame
   * to frame (a mouth pasted there shimmers); 4 follows the pan within a pixel and keeps its curve.
   */
  rigidHalf?: number;
  /** Half window for the shape within the face (lips, lids): each point is noisy on its own; default 4 (±160 ms). */
  shapeHalf?: number;
}

/**
 * Smooths a mesh track (one mesh per frame, no gaps). Each mesh = a similarity of one reference
 * shape (where the head is) plus a small residual (the expression). The similarity is fitted on
 * all 468 points, so it is precise and gets a short window; the residual is smoothed longer.
 */
export function smoothMeshes(meshes: Point[][], opts: SmoothOptions = {}): Point[][] {
  const n = meshes.length;
  if (n === 0) return [];
  const len = meshes[0].length;
  // Reference shape: every mesh brought onto the first, averaged.
  const ref: Point[] = Array.from({ length: len }, () => ({ x: 0, y: 0 }));
  for (const m of meshes) {
    const s = fitSimilarity(m, meshes[0]);
    for (let j = 0; j < len; j++) {
      const p = applySim(s, m[j]);
      ref[j].x += p.x / n;
      ref[j].y += p.y / n;
    }
  }
  const sims = meshes.map((m) => fitSimilarity(ref, m));
  const rigid = (k: keyof Similarity) =>
    savitzkyGolay(
      sims.map((s) => s[k]),
      opts.rigidHalf ?? 4,
    );
  const [a, b, tx, ty] = [rigid("a"), rigid("b"), rigid("tx"), rigid("ty")];
  const shapeHalf = opts.shapeHalf ?? 4;
  const rx = new Float64Array(n);
  const ry = new Float64Array(n);
  const out: Point[][] = meshes.map(() => new Array<Point>(len));
  for (let j = 0; j < len; j++) {
    for (let i = 0; i < n; i++) {
      const q = invertSim(sims[i], meshes[i][j]);
      rx[i] = q.x - ref[j].x;
      ry[i] = q.y - ref[j].y;
    }
    const sx = savitzkyGolay(rx, shapeHalf);
    const sy = savitzkyGolay(ry, shapeHalf);
    for (let i = 0; i < n; i++) {
      out[i][j] = applySim({ a: a[i], b: b[i], tx: tx[i], ty: ty[i] }, { x: ref[j].x + sx[i], y: ref[j].y + sy[i] });
    }
  }
  return out;
}

/** Frames where the face was not found take the mesh interpolated between their neighbours. */
export function fillGaps(meshes: (Point[] | null)[]): Point[][] {
  const known = meshes.flatMap((m, i) => (m ? [i] : []));
  if (known.length === 0) throw new Error("fillGaps: no frame has a face");
  return meshes.map((m, i) => {
    if (m) return m;
    const after = known.find((k) => k > i);
    const before = known.filter((k) => k < i).at(-1);
    if (before === undefined) return meshes[after!]!;
    if (after === undefined) return meshes[before]!;
    const t = (i - before) / (after - before);
    const p = meshes[before]!,
      q = meshes[after]!;
    return p.map((pt, j) => ({ x: pt.x + (q[j].x - pt.x) * t, y: pt.y + (q[j].y - pt.y) * t }));
  });
}

const mid = (m: Point[], ids: readonly number[]): Point => {
  const pts = [3, 4, 5, 6, 7].map((k) => m[ids[k]]);
  return { x: pts.reduce((s, p) => s + p.x, 0) / pts.length, y: pts.reduce((s, p) => s + p.y, 0) / pts.length };
};

/** Lips apart, as a fraction of the mouth's width (about 0 closed, 0.2–0.6 talking). */
export function mouthGap(m: Point[]): number {
  const up = mid(m, MESH.upperInner);
  const lo = mid(m, MESH.lowerInner);
  const [r, l] = MESH.mouthCorners.map((i) => m[i]);
  return Math.max(0, Math.hypot(lo.x - up.x, lo.y - up.y)) / Math.max(1e-6, Math.hypot(l.x - r.x, l.y - r.y));
}

function faceSize(m: Point[]): { c: Point; h: number } {
  const top = m[MESH.foreheadTop];
  const chin = m[MESH.chin];
  return { c: { x: (top.x + chin.x) / 2, y: (top.y + chin.y) / 2 }, h: Math.hypot(chin.x - top.x, chin.y - top.y) };
}

export interface LoopOptions {
  /** Longest loop (before the ping-pong doubles it). */
  maxSeconds: number;
  /** Shortest stretch with a face that makes a loop. */
  minSeconds: number;
  /** Gaps of at most this many samples without a face are bridged (the tracker blinked). */
  maxGap?: number;
}

/** The chosen stretch, in samples [first, last] and seconds. */
export interface LoopChoice {
  first: number;
  last: number;
  startS: number;
  seconds: number;
  /** Mean lip gap and head speed (face heights per second) over the stretch, for `detail`. */
  gap: number;
  speed: number;
}

/**
 * The idle loop: a stretch of evenly spaced samples (`dt` seconds apart; null = no face) with a
 * face throughout, at most `maxSeconds`, chosen for closed lips first, then little head motion,
 * then slow motion at both ends (where the ping-pong turns round). Null when no stretch with a
 * face lasts `minSeconds`.
 */
export function chooseLoop(samples: (Point[] | null)[], dt: number, opts: LoopOptions): LoopChoice | null {
  const n = samples.length;
  const maxGap = opts.maxGap ?? 2;
  // Runs of samples with a face, short gaps bridged.
  const present = samples.map((s) => s !== null);
  for (let i = 0; i < n; i++) {
    if (present[i]) continue;
    let j = i;
    while (j < n && !samples[j]) j++;
    if (i > 0 && j < n && j - i <= maxGap) for (let k = i; k < j; k++) present[k] = true;
    i = j;
  }
  const filled = fillGapsWhere(samples, present);
  const gap = filled.map((m) => (m ? mouthGap(m) : 0));
  const size = filled.map((m) => (m ? faceSize(m) : null));
  const speed = size.map((s, i) => {
    const p = size[i - 1] ?? size[i + 1];
    if (!s || !p) return 0;
    return (Math.hypot(s.c.x - p.c.x, s.c.y - p.c.y) / s.h + Math.abs(Math.log(s.h / p.h))) / dt;
  });
  const want = Math.max(1, Math.round(opts.maxSeconds / dt));
  let best: { first: number; last: number; cost: number } | null = null;
  for (let i = 0; i < n; ) {
    if (!present[i]) {
      i++;
      continue;
    }
    let end = i;
    while (end + 1 < n && present[end + 1]) end++;
    const len = Math.min(want, end - i + 1);
    for (let s = i; s + len - 1 <= end; s++) {
      const e = s + len - 1;
      let g = 0,
        v = 0;
      for (let k = s; k <= e; k++) (g += gap[k]), (v += speed[k]);
      // Lips first (a talking stretch would talk over the speech), then motion, then turnarounds;
      // a longer loop repeats less visibly.
      const cost = (10 * g) / len + v / len + 0.5 * (speed[s] + speed[e]) - (0.3 * len) / want;
      if (!best || cost < best.cost - 1e-9 || (Math.abs(cost - best.cost) <= 1e-9 && e - s > best.last - best.first))
        best = { first: s, last: e, cost };
    }
    i = end + 1;
  }
  if (!best || (best.last - best.first + 1) * dt < opts.minSeconds - 1e-9) return null;
  const { first, last } = best;
  const len = last - first + 1;
  let g = 0,
    v = 0;
  for (let k = first; k <= last; k++) (g += gap[k]), (v += speed[k]);
  return { first, last, startS: first * dt, seconds: len * dt, gap: g / len, speed: v / len };
}

function fillGapsWhere(samples: (Point[] | null)[], present: boolean[]): (Point[] | null)[] {
  const out = samples.slice();
  for (let i = 0; i < samples.length; i++) {
    if (!present[i] || samples[i]) continue;
    let j = i;
    while (!samples[j]) j++;
    const seg = fillGaps(samples.slice(i - 1, j + 1));
    for (let k = i; k < j; k++) out[k] = seg[k - i + 1];
    i = j;
  }
  return out;
}

export interface LoopCrop {
  transform: FrameTransform;
  /** Side of the square in video pixels. */
  side: number;
  /** What had to give, for `detail`. */
  notes: string[];
}

/**
 * One crop for the whole loop: each frame's face framed like a photo (`framing`: face height and
 * position in the square), the union of those squares, the eyes levelled by the loop's mean
 * roll, kept inside the video (no padding around moving footage) and at most `maxGrow` times a
 * single frame's square (a face that wanders far would otherwise shrink to nothing).
 */
export function loopCrop(
  meshes: Point[][],
  framing: Framing,
  video: { width: number; height: number },
  size: number,
  maxGrow = 1.6,
): LoopCrop {
  const notes: string[] = [];
  const roll = meshes.reduce((s, m) => s + meshRoll(m), 0) / meshes.length;
  const pivot = meshes.reduce((s, m) => ({ x: s.x + m[MESH.noseTip].x / meshes.length, y: s.y + m[MESH.noseTip].y / meshes.length }), {
    x: 0,
    y: 0,
  });
  const level = new FrameTransform(pivot, roll, { x: 0, y: 0 }, { x: 0, y: 0 }, 1);
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  const sides: number[] = [];
  for (const m of meshes) {
    const f = anchorsFromMesh(m.map((p) => level.upright(p))).face;
    const s = f.height / framing.faceHeight;
    sides.push(s);
    const left = f.x - s / 2;
    const top = f.y - framing.faceCentreY * s;
    x0 = Math.min(x0, left);
    y0 = Math.min(y0, top);
    x1 = Math.max(x1, left + s);
    y1 = Math.max(y1, top + s);
  }
  sides.sort((p, q) => p - q);
  const typical = sides[Math.floor(sides.length / 2)];
  let side = Math.max(x1 - x0, y1 - y0);
  if (side > typical * maxGrow) {
    side = typical * maxGrow;
    notes.push("the face moves further than one frame can follow; the frame shows where it spends most time");
  }
  const spread = Math.abs(Math.cos(roll)) + Math.abs(Math.sin(roll));
  const fits = Math.min(video.width, video.height) / spread;
  if (side > fits) {
    side = fits;
    notes.push(`the video is framed tighter than "${framing.name}"; the face fills more of the frame`);
  }
  // Keep the frame inside the video: shift the square's centre (in video pixels), then back upright.
  const box = (side * spread) / 2;
  const c = level.toPhoto({ x: (x0 + x1) / 2, y: (y0 + y1) / 2 });
  const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));
  const centre = level.upright({ x: clamp(c.x, box, video.width - box), y: clamp(c.y, box, video.height - box) });
  return { transform: new FrameTransform(pivot, roll, centre, { x: size / 2, y: size / 2 }, size / side), side, notes };
}
