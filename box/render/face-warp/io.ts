// The renderer model's input/output contract (documented in box/render/README.md). A learned
// lip-sync model placed on the box volume is run through the same names and layouts.
import type { FrameParams } from "../frame-params.ts";

/** Bumped whenever the generated graph changes, so a stale generated file is rebuilt. */
export const FACE_WARP_VERSION = "10";

export const IO = {
  /** uint8 [1, 1, H, W]: the face's luma plane. */
  y: "y",
  /** uint8 [1, 2, H/2, W/2]: the face's U then V planes (exactly the I420 tail). */
  uv: "uv",
  /** float32 [19]: landmark anchors in output pixels, layout ANCHOR_LAYOUT. Optional for other models. */
  anchors: "anchors",
  /** float32 [10]: this frame's parameters, order PARAM_ORDER. Optional for other models. */
  params: "params",
  /**
   * float32 [13]: the face's mouth (mouth-palette.ts `mouthVector`): the interior's colours in
   * the face's own hues (order INTERIOR_KEYS, Y U V each), then the opening its picture shows
   * (px). Optional for other models.
   */
  mouth: "mouth",
  /** uint8 [1, 1, H, W] */
  yOut: "y_out",
  /** uint8 [1, 2, H/2, W/2] */
  uvOut: "uv_out",
} as const;

export const ANCHOR_LAYOUT = [
  "face.x",
  "face.y",
  "face.width",
  "face.height",
  "mouth.x",
  "mouth.y",
  "mouth.width",
  "leftEye.x",
  "leftEye.y",
  "leftEye.width",
  "leftEye.height",
  "rightEye.x",
  "rightEye.y",
  "rightEye.width",
  "rightEye.height",
  "leftBrow.x",
  "leftBrow.y",
  "rightBrow.x",
  "rightBrow.y",
] as const;

export const PARAM_ORDER = [
  "open",
  "wide",
  "round",
  "smile",
  "blink",
  "brow",
  "headX",
  "headY",
  "headRoll",
  "breathe",
] as const satisfies readonly (keyof FrameParams)[];

export function paramsToVector(p: FrameParams, out = new Float32Array(PARAM_ORDER.length)): Float32Array {
  for (let i = 0; i < PARAM_ORDER.length; i++) {
    const v = p[PARAM_ORDER[i]];
    // A NaN would poison the whole sampling grid; treat it as "no motion".
    out[i] = Number.isFinite(v) ? v : 0;
  }
  return out;
}
