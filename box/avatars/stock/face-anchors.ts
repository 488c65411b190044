// The renderer's anchors of a drawn stock face: taken from the same geometry the drawing uses
// (shared/face-drawing/), so they are exact by construction.
import type { FaceGeometry } from "../../../shared/face-drawing/svg-face.ts";
import type { FaceAnchors } from "../../render/prepared-face.ts";

export function faceAnchors(g: FaceGeometry): FaceAnchors {
  return {
    face: { x: g.cx, y: (g.hairline + g.chin) / 2, width: g.faceW, height: g.chin - g.hairline },
    mouth: { x: g.cx, y: g.mouthY, width: g.mouthW },
    leftEye: { x: g.cx - g.eyeDx, y: g.eyeY, width: g.eyeW, height: g.eyeH },
    rightEye: { x: g.cx + g.eyeDx, y: g.eyeY, width: g.eyeW, height: g.eyeH },
    leftBrow: { x: g.cx - g.eyeDx, y: g.browY },
    rightBrow: { x: g.cx + g.eyeDx, y: g.browY },
  };
}
