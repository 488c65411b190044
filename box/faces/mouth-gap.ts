// Implements: "the mouth closes in pauses" for a photo taken with the lips apart (issue 10
// item 2): how far below the seam the lower lip's inner edge lies in the photo, so the renderer
// can close the lips at rest (FaceAnchors mouth.gap, box/render/README.md "The mouth"), with the
// seam moved up to the upper lip's real edge when the mesh put it on the teeth.
import type { FaceAnchors, Point } from "../render/prepared-face.ts";
import { MESH } from "./mesh-anchors.ts";

/** Below this share of the mouth's width the lips count as closed (the mesh's own noise is about 0.02). */
export const CLOSED_GAP = 0.04;

/**
 * `anchors` with mouth.gap set when the photo's lips are apart (returned unchanged when closed).
 * The mesh's lower inner-lip point tends to sit on the teeth of a smile; the edge is taken
 * where the column under it turns lip-coloured (luma of the RGBA face image, `size` wide).
 */
export function withMouthGap(anchors: FaceAnchors, mesh: Point[], rgba: Uint8Array, size: number): FaceAnchors {
  const { x: mx, y: seam, width: mW } = anchors.mouth;
  const inner = mesh[MESH.lowerInner[5]].y;
  const body = (inner + mesh[MESH.lowerOuter[5]].y) / 2;
  // Mean luma of a short row across the middle of the mouth.
  const luma = (y: number) => {
    const yy = Math.min(size - 1, Math.max(0, Math.round(y - 0.5)));
    let s = 0,
      n = 0;
    for (let x = Math.round(mx - 0.12 * mW); x <= mx + 0.12 * mW; x++, n++) {
      const i = (yy * size + Math.min(size - 1, Math.max(0, x))) * 4;
      s += 0.299 * rgba[i] + 0.587 * rgba[i + 1] + 0.114 * rgba[i + 2];
    }
    return s / n;
  };
  // Closed lips (the mesh's noise, or the dark line where they meet): nothing to close.
  if (!(inner - seam > CLOSED_GAP * mW)) return anchors;
  const lip = luma(body);
  const start = luma(inner);
  let edge = inner;
  // Teeth under the point (brighter than the lip): down to where the column turns lip-coloured.
  if (start - lip > 12) {
    for (let y = inner + 1; y < body; y++) {
      edge = y;
      if (luma(y) - lip < 0.4 * (start - lip)) break;
    }
  }
  // The seam sits a little inside the gap (mesh-anchors.ts), and the mesh's upper inner-lip
  // points often lie a pixel or two into the teeth: move it up to where the upper lip really
  // ends, so closing the lips leaves no sliver of teeth under the upper lip (issue 25 item 1).
  let top = seam;
  const teeth = Math.max(start, luma(seam + 1));
  if (teeth - lip > 12) {
    for (let y = seam; y > seam - 0.08 * mW; y--) {
      if (luma(y) - lip < 0.5 * (teeth - lip)) break;
      top = y - 1;
    }
  }
  const gap = edge - top;
  return { ...anchors, mouth: { ...anchors.mouth, y: top, gap } };
}
