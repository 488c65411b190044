// Implements: the built-in renderer model (docs/architecture.md "The media path of one live session"): a parametric face
// warp generated from code, no weights. Separable displacement terms are combined into the
// sampling grid by one MatMul per plane, then one GridSample warps luma and one warps chroma
// (I420 in, I420 out), and the mouth interior is painted on a crop around the mouth.
import { attrI, attrInts, attrS, GraphBuilder, Maths, type V } from "./graph-builder.ts";
import { cropGrid, mouthColours, mouthProfiles, paintCavity } from "./cavity.ts";
import { photoMouthPose } from "./photo-mouth.ts";
import { FACE_WARP_VERSION, IO, PARAM_ORDER } from "./io.ts";
import { headPose, moveAnchors, readAnchors, readParams } from "./scalars.ts";
import { blinkTerm, breatheTerm, browTerm, headTerms, squintTerm, type Coords, type Term } from "./terms-face.ts";
import { mouthTerms } from "./terms-mouth.ts";
import { MOUTH_INPUT_SIZE } from "../mouth-palette.ts";
import { ANCHOR_COUNT } from "../prepared-face.ts";

export interface BuiltModel {
  bytes: Uint8Array;
  nodeCount: number;
}

export function buildFaceWarpModel(): BuiltModel {
  const g = new GraphBuilder();
  const m = new Maths(g);
  const y = g.input(IO.y, "uint8", [1, 1, "H", "W"]);
  const uv = g.input(IO.uv, "uint8", [1, 2, "Hc", "Wc"]);
  const anchorsIn = g.input(IO.anchors, "float", [ANCHOR_COUNT]);
  const paramsIn = g.input(IO.params, "float", [PARAM_ORDER.length]);
  const mouthIn = g.input(IO.mouth, "float", [MOUTH_INPUT_SIZE]);

  // Sample centres in luma pixels: luma rows/columns then chroma ones (chroma j sits at 2j+1).
  const shape = g.op("Shape", [y]);
  const hi = m.at(shape, 2);
  const wi = m.at(shape, 3);
  const hf = m.cast(hi, "float");
  const wf = m.cast(wi, "float");
  const range = (start: number, limit: V, delta: number) => g.op("Range", [g.c(start), limit, g.c(delta)]);
  const xs = m.concat([range(0.5, wf, 1), range(1, wf, 2)], 0);
  const ys = m.concat([range(0.5, hf, 1), range(1, hf, 2)], 0);
  const zerosX = m.mul(xs, 0);
  const onesX = m.add(zerosX, 1);
  const onesY = m.add(m.mul(ys, 0), 1);
  const k: Coords = { xs, ys, onesX };

  const base = readAnchors(m, anchorsIn);
  const p = readParams(m, paramsIn);
  const head = headPose(m, base, p);
  const a = moveAnchors(m, base, head, p);
  const restGap = m.relu(m.at(mouthIn, MOUTH_INPUT_SIZE - 1));
  const mouth = mouthTerms(m, k, a, p, restGap);
  const terms: Term[] = [
    ...headTerms(m, k, base, head),
    breatheTerm(m, k, base, p),
    ...mouth.terms,
    blinkTerm(m, k, a.le, p),
    blinkTerm(m, k, a.re, p),
    squintTerm(m, k, a.le, p),
    squintTerm(m, k, a.re, p),
    browTerm(m, k, a.lb, a.le, a.fx, p),
    browTerm(m, k, a.rb, a.re, a.fx, p),
  ];

  // grid = sum_k row_k(y) * col_k(x), in pixels (the identity first), then scaled once to
  // GridSample's normalised coordinates. Profiles are stacked with one Concat each (few nodes:
  // at this size a node's fixed cost outweighs its arithmetic).
  const sx = m.div(2, wf);
  const sy = m.div(2, hf);
  const all: Term[] = [{ row: onesY, colX: m.sub(xs, m.mul(wf, 0.5)) }, { row: m.sub(ys, m.mul(hf, 0.5)), colY: onesX }, ...terms];
  const stack = (vs: V[]) => m.reshape(m.concat(vs, 0), g.ci([all.length, -1]));
  const a2 = g.op("Transpose", [stack(all.map((t) => t.row))], [attrInts("perm", [1, 0])]); // [1.5H, K]
  const cx = m.mul(stack(all.map((t) => t.colX ?? zerosX)), sx);
  const cy = m.mul(stack(all.map((t) => t.colY ?? zerosX)), sy);
  const b3 = m.concat([m.unsqueeze(cx, [2]), m.unsqueeze(cy, [2])], 2); // [K, 1.5W, 2]
  const hi1 = m.unsqueeze(hi, [0]);
  const wi1 = m.unsqueeze(wi, [0]);
  const zero = g.ci([0]);
  const end = g.ci([1 << 30]);
  const flat = g.ci([all.length, -1]);
  const grid = (rows: V, cols: V, outH: V) =>
    m.reshape(g.op("MatMul", [rows, m.reshape(cols, flat)]), m.concat([g.ci([1]), outH, g.ci([-1, 2])], 0));
  const gridY = grid(m.slice(a2, zero, hi1, [0]), m.slice(b3, zero, wi1, [1]), hi1);
  const gridUV = grid(m.slice(a2, hi1, end, [0]), m.slice(b3, wi1, end, [1]), g.op("Div", [hi1, g.ci([2])]));

  const sample = (img: V, gr: V) =>
    g.op("GridSample", [img, gr], [attrS("mode", "bilinear"), attrS("padding_mode", "border"), attrI("align_corners", 0)]);
  const yF = m.cast(y, "float");
  const uvF = m.cast(uv, "float");
  const warpedY = sample(yF, gridY);
  const warpedUV = sample(uvF, gridUV);
  const round8 = (v: V) => m.cast(m.add(v, 0.5), "uint8");

  const crop = cropGrid(m, a, mouth.shape, wf, hf, wi, hi);
  const colours = mouthColours(m, mouthIn);
  const profiles = mouthProfiles(m, xs, ys, a, mouth.shape);
  const pose = photoMouthPose(m, base, head, mouth.shape.halfWidth, wf, hf);
  const yOut = paintCavity(m, a, profiles, crop, colours, pose, { warped: warpedY, source: yF, rounded: round8(warpedY), step: 1 });
  const uvOut = paintCavity(m, a, profiles, crop, colours, pose, { warped: warpedUV, source: uvF, rounded: round8(warpedUV), step: 2 });
  g.output(yOut, IO.yOut, "uint8", [1, 1, "H", "W"]);
  g.output(uvOut, IO.uvOut, "uint8", [1, 2, "Hc", "Wc"]);

  const bytes = g.encode({
    name: "face_warp",
    doc: "Parametric face warp (I420 in/out); inputs and outputs documented in box/render/README.md.",
    metadata: { face_warp_version: FACE_WARP_VERSION, params: PARAM_ORDER.join(",") },
  });
  return { bytes, nodeCount: g.nodeCount };
}
