// The mouth interior, in the face's own colours (the `mouth` input: mouth-palette.ts derives
// them from colours sampled around the face's mouth): a dark cavity (darker into the corners)
// whose rims, the lips' inner faces, take the lip line's colour, upper teeth under the upper lip
// lit like the photo, and a subdued tongue low in the middle, blended as a lens between the
// parted lips with a feathered edge that softens towards the corners; where the picture has its
// own opening, its own interior is shown over the painted one (photo-mouth.ts). Computed only
// on a crop around the mouth (the rest of the frame is untouched) and pasted back.
import type { Maths, V } from "./graph-builder.ts";
import { INTERIOR_KEYS, type MouthInterior } from "../mouth-palette.ts";
import { photoMouth, type PhotoMouthPose } from "./photo-mouth.ts";
import type { AnchorS } from "./scalars.ts";
import type { MouthShape } from "./terms-mouth.ts";

/** Colours of the interior for one plane: scalars (luma) or [2, 1, 1] tensors (U, V). */
type Colours = Record<keyof MouthInterior, V>;

export interface MouthColours {
  luma: Colours;
  chroma: Colours;
}

/** Feather of the opening's edge, luma pixels (the chroma plane's samples are 2 px apart). */
const FEATHER = { luma: 1.7, chroma: 2.4 };

/** The interior's colours from the `mouth` input (one Gather each). */
export function mouthColours(m: Maths, mouth: V): MouthColours {
  const g = m.g;
  const p = m.clip(mouth, 0, 255);
  const luma = {} as Colours;
  const chroma = {} as Colours;
  INTERIOR_KEYS.forEach((k, i) => {
    luma[k] = m.at(p, i * 3);
    chroma[k] = g.op("Gather", [p, g.ci([i * 3 + 1, i * 3 + 2], [2, 1, 1])]);
  });
  return { luma, chroma };
}

export interface Plane {
  /** Warped plane, float [1, C, h, w]. */
  warped: V;
  /** The unwarped plane, float [1, C, h, w] (the picture's own mouth is sampled from it). */
  source: V;
  /** The same plane rounded to uint8. */
  rounded: V;
  /** 1 for luma, 2 for chroma (pixels per sample in luma units). */
  step: 1 | 2;
}

export interface CropGrid {
  /** Crop bounds in chroma samples as int64 [1] tensors. */
  x0: V;
  x1: V;
  y0: V;
  y1: V;
  /** Luma width and height as int64 [1] (offsets of the chroma part in xs/ys). */
  w: V;
  h: V;
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

/**
 * What the painter needs per column (x) and per row (y), computed once on the whole coordinate
 * vectors (luma then chroma samples) and sliced for each plane: fewer nodes than per plane.
 */
export interface MouthProfiles {
  /** Columns: the opening's top edge (relative to the seam row) and height. */
  lo: V;
  gap: V;
  /** Columns: upper teeth length, teeth weight across the mouth, gaps between teeth (luma). */
  teethLen: V;
  teethCols: V;
  toothGaps: V;
  /** Columns: 1 / height (for the height within the opening), tongue weight, 1 / rim width. */
  invGap: V;
  tongueCols: V;
  invRim: V;
  /**
   * Columns: luma factor darkening into the corners; the edge's feather relative to the
   * centre's (wider towards the corners); how opaque the interior is (less at the corners).
   */
  shade: V;
  featherScale: V;
  opacity: V;
  /** Columns: the picture's own opening (terms-mouth.ts picTop, picSpan) and px from the mouth centre. */
  picTop: V;
  picSpan: V;
  dx: V;
  /** Rows: offset from the seam row. */
  rows: V;
}

export function mouthProfiles(m: Maths, xs: V, ys: V, a: AnchorS, shape: MouthShape): MouthProfiles {
  const u = m.abs(shape.u);
  const gap = shape.gap;
  // Upper teeth: a band under the upper lip (never more than ~40% of the gap) whose lower
  // edge dips between teeth; front teeth widest at the centre, lateral ones shorter.
  const xc = m.sub(xs, a.mx);
  const between = m.sub(1, m.abs(m.sin(m.div(xc, m.mul(a.mW, 0.115 / Math.PI)))));
  const teethLen = m.mul(m.min(m.mul(a.mW, 0.078), m.mul(gap, 0.38)), m.mul(m.fma(between, -0.25, 1), m.fma(m.mul(u, u), -0.45, 1)));
  const rows = m.sub(ys, a.my);
  return {
    lo: shape.lo,
    gap,
    teethLen,
    teethCols: m.sub(1, m.smoothstep(0.45, 0.92, u)),
    // Soft gaps between teeth (luma only).
    toothGaps: m.fma(m.pow(between, 6), -0.22, 1),
    invGap: m.div(1, m.max(gap, 0.5)),
    tongueCols: m.sub(1, m.smoothstep(0.15, 0.85, u)),
    // The lips' inner faces: a band that widens with the opening (the cavity darkens gradually).
    invRim: m.div(1, m.fma(gap, 0.2, 1.4)),
    shade: m.fma(m.smoothstep(0.3, 1.0, u), -0.45, 1),
    // Lips overlap softly at the corners: the edge there is about twice as soft as in the middle.
    featherScale: m.fma(m.mul(u, u), 1.3, 1),
    // ...and the interior thins out there, so the opening ends in the lips' own shadow, not a point.
    opacity: m.fma(m.smoothstep(0.55, 1.0, u), -0.5, 1),
    picTop: shape.picTop,
    picSpan: shape.picSpan,
    dx: xc,
    rows,
  };
}

export function paintCavity(
  m: Maths,
  a: AnchorS,
  pr: MouthProfiles,
  crop: CropGrid,
  colours: MouthColours,
  pose: PhotoMouthPose,
  plane: Plane,
): V {
  const g = m.g;
  const two = g.ci([2]);
  const int = (x: V, f: V) => g.op("Mul", [x, f]);
  const addI = (x: V, y: V) => g.op("Add", [x, y]);
  // Crop bounds of this plane, and where its samples sit in the coordinate vectors.
  const [c0, c1, r0, r1] =
    plane.step === 1 ? [int(crop.x0, two), int(crop.x1, two), int(crop.y0, two), int(crop.y1, two)] : [crop.x0, crop.x1, crop.y0, crop.y1];
  const [xOff0, xOff1, yOff0, yOff1] =
    plane.step === 1 ? [c0, c1, r0, r1] : [addI(c0, crop.w), addI(c1, crop.w), addI(r0, crop.h), addI(r1, crop.h)];
  const col = (v: V) => m.slice(v, xOff0, xOff1, [0]);
  const row = (v: V) => m.unsqueeze(m.slice(v, yOff0, yOff1, [0]), [1]);
  const luma = plane.step === 1;
  const c = luma ? colours.luma : colours.chroma;
  const soft = luma ? FEATHER.luma : FEATHER.chroma;

  const gap = col(pr.gap);
  // Distance below the upper lip's inner edge; inside the lens when 0 < d < gap.
  const d = m.sub(row(pr.rows), col(pr.lo));
  const inside = m.min(d, m.sub(gap, d));
  // A feathered edge centred half a feather inside the lips (so the lips' own edge stays whole);
  // a closed mouth (gap 0) paints nothing, a thin one only a faint line.
  const invSoft = m.div(1 / soft, col(pr.featherScale));
  const edge = m.clamp01(m.add(m.mul(inside, invSoft), m.clip(m.mul(m.mul(gap, 0.5), invSoft), 0, 0.5)));
  const mask = m.mul(edge, col(pr.opacity));
  // The teeth's tips fade into the cavity over more than a pixel (they are translucent there).
  const teeth = m.mul(m.clamp01(m.fma(m.sub(col(pr.teethLen), d), 1 / (soft * 1.4), 0.5)), col(pr.teethCols));
  // Tongue: the lower middle of the opening (0 at the upper lip, 1 at the lower), rising into
  // view as the mouth opens.
  const tongue = m.mul(m.smoothstep(0.45, 0.9, m.mul(d, col(pr.invGap))), col(pr.tongueCols));
  // Rim: the lips' inner faces, a soft band of the lip line's colour along the lips (the upper
  // one mostly under the teeth), so the cavity darkens inwards instead of ending in a line.
  const rim = m.clamp01(m.sub(1, m.mul(inside, col(pr.invRim))));

  // Interior from the back outwards: back, tongue, rim, teeth.
  let cav = m.fma(tongue, m.sub(c.tongue, c.back), c.back);
  cav = m.fma(m.mul(rim, 0.7), m.sub(c.rim, cav), cav);
  let teethCol = c.teeth;
  if (luma) {
    // The upper lip's shadow on the teeth.
    const lipShadow = m.clip(m.fma(d, m.div(0.3, m.mul(a.mW, 0.05)), 0.7), 0, 1);
    // ...and the teeth a little greyer towards their tips (a row of painted teeth otherwise reads as a strip).
    const tips = m.clip(m.fma(d, m.div(-0.18, m.max(col(pr.teethLen), 1)), 1), 0.82, 1);
    teethCol = m.fma(m.mul(m.mul(m.sub(teethCol, 16), col(pr.toothGaps)), tips), lipShadow, 16);
  }
  cav = m.fma(teeth, m.sub(teethCol, cav), cav);
  // Depth: the interior darkens into the corners (luma; chroma keeps its hue).
  const cavShaded = luma ? m.fma(m.sub(cav, 16), col(pr.shade), 16) : cav;

  // The picture's own interior where it has one (its teeth, with the head above and the jaw below).
  const own = photoMouth(m, pose, {
    source: plane.source,
    d,
    gap,
    picTop: col(pr.picTop),
    picSpan: col(pr.picSpan),
    dx: col(pr.dx),
    soft,
  });
  const interior = m.add(cavShaded, m.mul(own.weight, m.sub(own.sample, cavShaded)));

  const patch = m.slice(m.slice(plane.warped, r0, r1, [2]), c0, c1, [3]);
  const painted = m.add(patch, m.mul(mask, m.sub(interior, patch)));
  const patch8 = m.cast(m.add(painted, 0.5), "uint8");
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
