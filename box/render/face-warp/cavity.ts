// The mouth interior: a dark cavity with upper teeth under the upper lip and the tongue at
// the bottom, blended as a soft lens between the parted lips. Computed only on a crop
// around the mouth (the rest of the frame is untouched) and pasted back.
import { rgbToYuv } from "../i420.ts";
import type { Maths, V } from "./graph-builder.ts";
import type { AnchorS } from "./scalars.ts";
import type { MouthShape } from "./terms-mouth.ts";

const COLOURS = {
  cavity: rgbToYuv(58, 16, 22),
  teeth: rgbToYuv(240, 236, 226),
  tongue: rgbToYuv(165, 64, 76),
};

export interface Plane {
  /** Warped plane, float [1, C, h, w]. */
  warped: V;
  /** The same plane rounded to uint8. */
  rounded: V;
  /** 1 for luma, 2 for chroma (pixels per sample in luma units). */
  step: 1 | 2;
}

export interface CropGrid {
  /** Crop bounds in chroma samples as int64 [1] tensors. */
  x0: V; x1: V; y0: V; y1: V;
  /** Luma width and height as int64 [1] (offsets of the chroma part in xs/ys). */
  w: V; h: V;
}

export function cropGrid(m: Maths, a: AnchorS, shape: MouthShape, wf: V, hf: V, wi: V, hi: V): CropGrid {
  const toIdx = (v: V, hiBound: V) => m.unsqueeze(m.cast(m.clip(v, 0, hiBound), "int64"), [0]);
  const wc = m.mul(wf, 0.5);
  const hc = m.mul(hf, 0.5);
  return {
    x0: toIdx(m.floor(m.mul(m.sub(m.sub(a.mx, shape.halfWidth), 4), 0.5)), wc),
    x1: toIdx(m.ceil(m.mul(m.add(m.add(a.mx, shape.halfWidth), 4), 0.5)), wc),
    y0: toIdx(m.floor(m.mul(m.sub(m.fma(a.mW, -0.3, a.my), 4), 0.5)), hc),
    y1: toIdx(m.ceil(m.mul(m.add(m.fma(a.mW, 0.62, a.my), 4), 0.5)), hc),
    w: m.unsqueeze(wi, [0]),
    h: m.unsqueeze(hi, [0]),
  };
}

function colour(m: Maths, which: keyof typeof COLOURS, step: 1 | 2): V {
  const [y, u, v] = COLOURS[which];
  return step === 1 ? m.g.c(y) : m.g.c([u, v], [2, 1, 1]);
}

export function paintCavity(
  m: Maths, xs: V, ys: V, a: AnchorS, shape: MouthShape, crop: CropGrid, plane: Plane,
): V {
  const g = m.g;
  const two = g.ci([2]);
  const int = (x: V, f: V) => g.op("Mul", [x, f]);
  const addI = (x: V, y: V) => g.op("Add", [x, y]);
  // Crop bounds of this plane, and where its samples sit in the xs/ys vectors.
  const [c0, c1, r0, r1] = plane.step === 1
    ? [int(crop.x0, two), int(crop.x1, two), int(crop.y0, two), int(crop.y1, two)]
    : [crop.x0, crop.x1, crop.y0, crop.y1];
  const [xOff0, xOff1, yOff0, yOff1] = plane.step === 1
    ? [c0, c1, r0, r1]
    : [addI(c0, crop.w), addI(c1, crop.w), addI(r0, crop.h), addI(r1, crop.h)];
  const col = (v: V) => m.slice(v, xOff0, xOff1, [0]);
  const rows = m.unsqueeze(m.sub(m.slice(ys, yOff0, yOff1, [0]), a.my), [1]);

  const u = m.abs(col(shape.u));
  const lo = col(shape.lo);
  const gap = col(shape.gap);
  const soft = plane.step === 1 ? 1.1 : 1.6;
  // Distance below the upper lip's inner edge; inside the lens when 0 < d < gap.
  const d = m.sub(rows, lo);
  const inside = m.min(d, m.sub(gap, d));
  // The edge sits half a softness inside the lips; a closed mouth (gap 0) paints nothing.
  const mask = m.clamp01(m.add(m.mul(inside, 1 / soft), m.clip(m.mul(gap, 0.5 / soft), 0, 0.5)));
  const luma = plane.step === 1;
  // Upper teeth: a band under the upper lip (never more than ~40% of the gap) whose lower
  // edge dips between teeth; front teeth widest at the centre, lateral ones shorter.
  const xc = m.sub(col(xs), a.mx);
  const toothW = m.mul(a.mW, 0.115);
  const between = m.sub(1, m.abs(m.sin(m.div(m.mul(xc, Math.PI), toothW))));
  const teethLen = m.mul(
    m.min(m.mul(a.mW, 0.078), m.mul(gap, 0.38)),
    m.mul(m.fma(between, -0.16, 1), m.fma(m.mul(u, u), -0.3, 1)),
  );
  const teethCols = m.sub(1, m.smoothstep(0.45, 0.92, u));
  const teeth = m.mul(m.clamp01(m.fma(m.sub(teethLen, d), 1 / soft, 0.5)), teethCols);
  // Tongue: the lower middle of the opening, with a dark margin above the lower lip.
  const t = m.mul(d, m.div(1, m.max(gap, 0.5)));
  const tongueCols = m.sub(1, m.smoothstep(0.2, 0.8, u));
  const tongue = m.mul(
    m.mul(m.clamp01(m.fma(t, 5, -2.9)), m.clamp01(m.fma(t, -9, 8.7))),
    m.mul(m.sub(1, teeth), tongueCols),
  );
  const dark = colour(m, "cavity", plane.step);
  let teethCol = m.sub(colour(m, "teeth", plane.step), dark);
  if (luma) {
    // Thin gaps between teeth, and the upper lip's shadow on them.
    const gaps = m.fma(m.pow(between, 8), -0.3, 1);
    const lipShadow = m.clip(m.fma(d, m.div(0.3, m.mul(a.mW, 0.05)), 0.7), 0, 1);
    teethCol = m.mul(m.mul(teethCol, gaps), lipShadow);
  }
  const cav = m.add(m.add(dark, m.mul(teeth, teethCol)), m.mul(tongue, m.sub(colour(m, "tongue", plane.step), dark)));
  // Depth: the cavity darkens towards the corners.
  const shade = m.fma(m.smoothstep(0.25, 1.0, u), -0.4, 1);
  const cavShaded = luma ? m.add(m.mul(m.sub(cav, 16), shade), 16) : cav;

  const patch = m.slice(m.slice(plane.warped, r0, r1, [2]), c0, c1, [3]);
  const blended = m.add(patch, m.mul(mask, m.sub(cavShaded, patch)));
  const patch8 = m.cast(m.add(blended, 0.5), "uint8");
  return paste(m, plane.rounded, patch8, r0, r1, c0, c1);
}

/** Writes `patch` into rows r0..r1, columns c0..c1 of a [1, C, H, W] uint8 plane. */
function paste(m: Maths, full: V, patch: V, r0: V, r1: V, c0: V, c1: V): V {
  const g = m.g;
  const zero = g.ci([0]);
  const end = g.ci([1 << 30]);
  const band = m.slice(full, r0, r1, [2]);
  const mid = m.concat([m.slice(band, zero, c0, [3]), patch, m.slice(band, c1, end, [3])], 3);
  return m.concat([m.slice(full, zero, r0, [2]), mid, m.slice(full, r1, end, [2])], 2);
}
