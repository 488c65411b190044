import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FaceLandmarker, meshArea, type DetectedFace } from "./face-landmarker.ts";
import { anchorsFromMesh, meshRoll, MESH } from "./mesh-anchors.ts";
import { demoPhoto, landscapePhoto, singlePhoto, smilingPhoto } from "./testing/photos.ts";

async function rgbOf(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

let landmarker: FaceLandmarker;
const detect = async (bytes: Uint8Array): Promise<DetectedFace[]> => {
  const img = await rgbOf(bytes);
  return landmarker.detect(img.rgb, img.width, img.height);
};

beforeAll(async () => {
  landmarker = await FaceLandmarker.load();
});

afterAll(() => landmarker?.dispose());

describe("FaceLandmarker (MediaPipe models from @vladmandic/human on tfjs-wasm)", () => {
  it("runs on the wasm backend", () => {
    expect(landmarker.backend).toBe("wasm");
  });

  it("finds the one face of a single-person photo with a 478-point mesh", async () => {
    const faces = await detect(await singlePhoto());
    expect(faces).toHaveLength(1);
    const [face] = faces;
    expect(face.mesh).toHaveLength(478);
    expect(face.score).toBeGreaterThan(0.5);
    const { box, mesh } = face;
    // The mesh lies in the detector's box (which has margin around the face).
    for (const p of mesh) {
      expect(p.x).toBeGreaterThan(box.x - 2);
      expect(p.x).toBeLessThan(box.x + box.width + 2);
      expect(p.y).toBeGreaterThan(box.y - 2);
      expect(p.y).toBeLessThan(box.y + box.height + 2);
    }
    // Where a face is in that photo (cut from sample6 at 540,150): head in the upper half.
    expect(mesh[MESH.noseTip].x).toBeGreaterThan(100);
    expect(mesh[MESH.noseTip].x).toBeLessThan(400);
    expect(mesh[MESH.noseTip].y).toBeGreaterThan(200);
    expect(mesh[MESH.noseTip].y).toBeLessThan(500);
  });

  it("gives landmarks in plausible places: eyes above the nose above the mouth above the chin", async () => {
    for (const photo of [await singlePhoto(), await smilingPhoto()]) {
      const [face] = await detect(photo);
      const m = face.mesh;
      const eyeY = (m[MESH.rightEye.outer].y + m[MESH.leftEye.outer].y) / 2;
      const mouthY = (m[MESH.mouthCorners[0]].y + m[MESH.mouthCorners[1]].y) / 2;
      expect(eyeY).toBeLessThan(m[MESH.noseTip].y);
      expect(m[MESH.noseTip].y).toBeLessThan(mouthY);
      expect(mouthY).toBeLessThan(m[MESH.chin].y);
      // Upper lip's inner edge above (or on) the lower lip's.
      expect(m[13].y).toBeLessThanOrEqual(m[14].y + 0.5);
      // Irises inside their eyes (the person's right eye is on the image's left).
      expect(m[MESH.irises[0]].x).toBeGreaterThan(Math.min(m[33].x, m[133].x));
      expect(m[MESH.irises[0]].x).toBeLessThan(Math.max(m[33].x, m[133].x));
      expect(m[MESH.rightEye.outer].x).toBeLessThan(m[MESH.leftEye.outer].x);
    }
  });

  it("maps the mesh to renderer anchors inside the face", async () => {
    const [face] = await detect(await smilingPhoto());
    const a = anchorsFromMesh(face.mesh);
    const top = a.face.y - a.face.height / 2;
    const chin = a.face.y + a.face.height / 2;
    expect(a.leftEye.x).toBeLessThan(a.rightEye.x);
    expect(a.leftBrow.y).toBeLessThan(a.leftEye.y);
    expect(a.rightBrow.y).toBeLessThan(a.rightEye.y);
    expect(Math.max(a.leftEye.y, a.rightEye.y)).toBeLessThan(a.mouth.y);
    expect(a.mouth.y).toBeGreaterThan(top + a.face.height * 0.55);
    expect(a.mouth.y).toBeLessThan(chin);
    expect(Math.abs(a.mouth.x - a.face.x)).toBeLessThan(a.face.width * 0.25);
    expect(top).toBeLessThan(Math.min(a.leftBrow.y, a.rightBrow.y));
    // Proportions of a human face: mouth about a third of the cheek width, eyes a fifth.
    expect(a.mouth.width / a.face.width).toBeGreaterThan(0.25);
    expect(a.mouth.width / a.face.width).toBeLessThan(0.6);
    expect(a.leftEye.width / a.face.width).toBeGreaterThan(0.1);
    expect(a.leftEye.width / a.face.width).toBeLessThan(0.35);
    // The smile shows teeth: the seam sits just under the upper lip, not lower than the lower lip.
    expect(a.mouth.y).toBeGreaterThanOrEqual(face.mesh[13].y);
    expect(a.mouth.y).toBeLessThan(face.mesh[14].y);
  });

  it("finds every face of a group photo, largest first", async () => {
    const faces = await detect(demoPhoto(4));
    expect(faces.length).toBe(4);
    const areas = faces.map(meshArea);
    expect([...areas].sort((x, y) => y - x)).toEqual(areas);
    for (const f of faces) expect(f.mesh).toHaveLength(478);
  });

  it("measures the roll of a tilted head", async () => {
    const single = await singlePhoto();
    const [upright] = await detect(single);
    const turned = await sharp(single).rotate(20, { background: "#000" }).jpeg().toBuffer();
    const [tilted] = await detect(new Uint8Array(turned));
    const diff = ((meshRoll(tilted.mesh) - meshRoll(upright.mesh)) * 180) / Math.PI;
    expect(diff).toBeGreaterThan(15);
    expect(diff).toBeLessThan(25);
  });

  it("finds nothing in a landscape", async () => {
    expect(await detect(await landscapePhoto())).toEqual([]);
  });
});
