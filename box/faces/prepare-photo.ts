// Implements: photo preparation (issue 10 item 2): decode and orient the photo, find the faces
// and their mesh, take the largest, frame it in a square at the renderer's size with the eyes
// level, and hand the renderer a PreparedFace (box/render/README.md) with anchors from the mesh.
import { MOUTH } from "../render/face-warp/terms-mouth.ts";
import { prepareFace, type PreparedFace, type Point } from "../render/prepared-face.ts";
import { FaceLandmarker } from "./face-landmarker.ts";
import { parseFraming } from "./framing.ts";
import { FrameTransform, rgbOf, softenPadding, warpToFrame } from "./frame-warp.ts";
import { assessHardPhoto } from "./hard-photo.ts";
import { anchorsFromMesh, MESH, meshRoll, meshYaw } from "./mesh-anchors.ts";
import { withMouthGap } from "./mouth-gap.ts";
import { blurRgb, decodeForDetection, decodeRegion, readPhotoHeader } from "./photo-decode.ts";
import { PhotoFaceError } from "./photo-error.ts";

export { PhotoFaceError } from "./photo-error.ts";
export { PHOTO_LIMITS } from "./photo-decode.ts";
export { FRAMINGS, DEFAULT_FRAMING } from "./framing.ts";

export interface PhotoPrepOptions {
  /** Output frame side in pixels (even, the renderer's size). */
  size: number;
  /** `head` (default), `face` or `bust` (framing.ts); anything else falls back to `head` and says so in `detail`. */
  framing?: string;
}

export interface PreparedPhoto {
  face: PreparedFace;
  facesFound: number;
  /** What was done, for a person: faces found, which one was used, framing, warnings. */
  detail: string;
  /** The face's mesh (478 points: MediaPipe's 468 then 10 iris points), in output pixels. */
  landmarks: { x: number; y: number }[];
}

let shared: Promise<FaceLandmarker> | undefined;

/** The process-wide landmarker, loaded on first use (kept: loading takes about half a second). */
export function photoLandmarker(): Promise<FaceLandmarker> {
  if (!shared) {
    shared = FaceLandmarker.load();
    shared.catch(() => (shared = undefined));
  }
  return shared;
}

/**
 * The mesh is noisy on real photos (a few degrees of roll and up to a tenth of the face height
 * between two crops of the same photo, measured on the test photos): look again at the framed
 * face, upright and at the mesh model's favourite scale, and average the two meshes.
 */
async function secondLook(landmarker: FaceLandmarker, rgba: Uint8Array, size: number, first: Point[]): Promise<Point[]> {
  const again = await landmarker.detect(rgbOf(rgba), size, size);
  // The same face: its nose tip within a quarter of the cheek width of the first look's.
  const nose = first[MESH.noseTip];
  const [cheekR, cheekL] = MESH.cheeks.map((i) => first[i]);
  const reach = Math.hypot(cheekR.x - cheekL.x, cheekR.y - cheekL.y) * 0.25;
  const near = (p: Point) => Math.hypot(p.x - nose.x, p.y - nose.y) < reach;
  const same = again.find((f) => f.mesh.length === first.length && near(f.mesh[MESH.noseTip]));
  if (!same) return first;
  return first.map((p, i) => ({ x: (p.x + same.mesh[i].x) / 2, y: (p.y + same.mesh[i].y) / 2 }));
}

const deg = (rad: number) => Math.round((rad * 180) / Math.PI);

export async function preparePhoto(bytes: Uint8Array, opts: PhotoPrepOptions): Promise<PreparedPhoto> {
  const { size } = opts;
  if (!Number.isInteger(size) || size < 64 || size % 2) throw new Error(`preparePhoto: size must be an even integer >= 64, got ${size}`);
  const { framing, note: framingNote } = parseFraming(opts.framing);
  const header = await readPhotoHeader(bytes);
  const det = await decodeForDetection(bytes, header);
  const landmarker = await photoLandmarker();
  const faces = await landmarker.detect(det.rgb, det.width, det.height);
  if (faces.length === 0) {
    throw new PhotoFaceError("No face was found in the photo. Use a photo where one face looks at the camera, well lit and not too small.");
  }
  // The landmarker lists the largest face first.
  const chosen = faces[0];

  // Mesh in photo pixels; level the eyes; frame the upright face.
  const mesh: Point[] = chosen.mesh.map((p) => ({ x: p.x / det.scale, y: p.y / det.scale }));
  const roll = meshRoll(mesh);
  const pivot = mesh[MESH.noseTip];
  const t0 = new FrameTransform(pivot, roll, { x: 0, y: 0 }, { x: 0, y: 0 }, 1);
  const upright = anchorsFromMesh(mesh.map((p) => t0.upright(p)));
  const faceH = upright.face.height;
  const scale = (framing.faceHeight * size) / faceH;
  const t = new FrameTransform(
    pivot,
    roll,
    { x: upright.face.x, y: upright.face.y },
    { x: size / 2, y: framing.faceCentreY * size },
    scale,
  );

  // Decode only the part of the photo the frame shows, at about the output's resolution.
  const b = t.photoBounds(size);
  const left = Math.max(0, Math.floor(b.x0) - 2);
  const top = Math.max(0, Math.floor(b.y0) - 2);
  const right = Math.min(header.width, Math.ceil(b.x1) + 2);
  const bottom = Math.min(header.height, Math.ceil(b.y1) + 2);
  const region = { left, top, width: right - left, height: bottom - top };
  const rw = Math.max(1, Math.round(region.width * scale));
  const rh = Math.max(1, Math.round(region.height * scale));
  const pixels = await decodeRegion(bytes, region, rw, rh);
  const warped = warpToFrame({ ...region, rgb: pixels.rgb, rw: pixels.width, rh: pixels.height }, t, size);
  if (warped.paddedPixels > 0) {
    const blurred = await blurRgb({ rgb: rgbOf(warped.rgba), width: size, height: size }, size / 16);
    softenPadding(warped.rgba, blurred, warped.outside, size / 16);
  }

  const landmarks = await secondLook(
    landmarker,
    warped.rgba,
    size,
    mesh.map((p) => t.toOutput(p)),
  );
  const anchors = withMouthGap(anchorsFromMesh(landmarks), landmarks, warped.rgba, size);

  const notes: string[] = [faces.length === 1 ? "1 face found" : `${faces.length} faces found; the largest was used`];
  notes.push(`framing "${framing.name}"`);
  if (framingNote) notes.push(framingNote);
  if (Math.abs(roll) > (3 * Math.PI) / 180)
    notes.push(`the head was tilted by ${Math.abs(deg(roll))} degrees; the photo was turned to level the eyes`);
  const yaw = meshYaw(mesh);
  if (Math.abs(yaw) > 0.9) notes.push("the face is turned well away from the camera; a frontal photo talks more convincingly");
  // A hard photo (a moustache, a hand at the mouth, glasses, side light, turned, tiny) moves less.
  const hard = assessHardPhoto({ rgba: warped.rgba, size, mesh: landmarks, yaw, faceHeightInPhoto: faceH });
  if (hard.motion) anchors.motion = hard.motion;
  // The renderer closes a picture's open mouth at rest (box/render/README.md "The mouth").
  const gap = anchors.mouth.gap ?? 0;
  if (gap > 0 && hard.findings.some((f) => f.kind === "lips-covered" || f.kind === "small")) {
    // Closing the lips would cut hair hanging into their gap, or (a tiny face's lips placed a
    // pixel off) leave a bright line of teeth, along a straight line: keep the photo's mouth at
    // rest (its upper teeth stay under the upper lip as the mouth opens).
    anchors.mouth = { ...anchors.mouth, gap: 0 };
    notes.push("the lips are apart in the photo and could not be closed cleanly; the avatar keeps them as the photo shows them at rest");
  } else if (gap > MOUTH.restGapMax * anchors.mouth.width) {
    notes.push(
      "the mouth is wide open in the photo; at rest the avatar's lips close only part of the way (a photo with the lips together or smiling rests better)",
    );
  } else if (gap > 0) {
    notes.push("the lips are apart in the photo; the avatar closes them at rest and opens onto the photo's own teeth");
  }
  if (scale > 2)
    notes.push(`the face is small in the photo (${Math.round(faceH)} pixels from hairline to chin); the avatar will look soft`);
  if (warped.paddedPixels > size * size * 0.02)
    notes.push("the frame reaches past the photo's edge; the gap was filled with blurred edge colour");
  for (const f of hard.findings) notes.push(f.note);

  return { face: prepareFace(warped.rgba, size, size, anchors), facesFound: faces.length, detail: notes.join("; "), landmarks };
}
