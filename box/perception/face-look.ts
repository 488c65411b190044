// Implements: docs/api-notes.md "Perception" (embedded): what the face models the box ships say
// about the person on camera, from the largest face's 468-point mesh: present or away, looking
// at the avatar (their screen) or away from it, smiling or not; and the one line the model is given.
import type { DetectedFace } from "../faces/face-landmarker.ts";
import { MESH } from "../faces/mesh-anchors.ts";

export interface Look {
  present: boolean;
  /** Facing the camera (so the screen, where the avatar is); null when nobody is there. */
  looking: boolean | null;
  smiling: boolean | null;
}

// MediaPipe face-mesh indices (the image's left eye is the person's right).
const NOSE_TIP = MESH.noseTip,
  EYE_OUTER_L = MESH.rightEye.outer,
  EYE_OUTER_R = MESH.leftEye.outer,
  [MOUTH_L, MOUTH_R] = MESH.mouthCorners,
  [LIP_TOP, LIP_BOTTOM] = MESH.innerLipMiddles;
/** A face below this detector score is not counted as someone there. */
const MIN_SCORE = 0.5;
/** Nose off the eyes' midpoint by more than this share of the eye span: the head is turned away. */
const TURNED = 0.25;
/** Mouth corners raised above the lips' middle by this share of the eye span: a smile. */
const CORNER_LIFT = 0.035;

export function lookOf(faces: readonly DetectedFace[]): Look {
  const face = faces.find((f) => f.score >= MIN_SCORE && f.mesh.length >= 468);
  if (!face) return { present: false, looking: null, smiling: null };
  const m = face.mesh;
  const l = m[EYE_OUTER_L]!,
    r = m[EYE_OUTER_R]!,
    nose = m[NOSE_TIP]!;
  const span = Math.hypot(r.x - l.x, r.y - l.y) || 1;
  // Measured across the eye line (a tilted head is not a turned one).
  const ux = (r.x - l.x) / span,
    uy = (r.y - l.y) / span;
  const across = ((nose.x - (l.x + r.x) / 2) * ux + (nose.y - (l.y + r.y) / 2) * uy) / span;
  const down = (p: { x: number; y: number }) => -p.x * uy + p.y * ux; // height along the face's own vertical
  const middle = (down(m[LIP_TOP]!) + down(m[LIP_BOTTOM]!)) / 2;
  const lift = (middle - (down(m[MOUTH_L]!) + down(m[MOUTH_R]!)) / 2) / span;
  return { present: true, looking: Math.abs(across) <= TURNED, smiling: lift >= CORNER_LIFT };
}

/** The context line for the model ("The person is looking at you and smiling."). */
export function lookLine(look: Look): string {
  if (!look.present) return "The person's camera is on but nobody is in front of it.";
  const where = look.looking ? "looking at you" : "looking away from you";
  return `The person is ${where}${look.smiling ? " and smiling" : ""}.`;
}
