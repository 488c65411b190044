import { mkdirSync, writeFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FaceRenderer } from "../render/face-renderer.ts";
import { NEUTRAL_FRAME } from "../render/frame-params.ts";
import { PNG_SIGNATURE } from "../render/png.ts";
import type { PreparedFace } from "../render/prepared-face.ts";
import { renderContactSheet } from "./contact-sheet.ts";
import { MESH } from "./mesh-anchors.ts";
import { decodeForDetection } from "./photo-decode.ts";
import { PhotoFaceError, preparePhoto, type PreparedPhoto } from "./prepare-photo.ts";
import {
  bombPng,
  demoPhoto,
  exifTurned,
  landscapePhoto,
  singlePhoto,
  smilingPhoto,
  solidPhoto,
  truncatedJpeg,
  twoPeoplePhoto,
  zipBytes,
} from "./testing/photos.ts";

const SIZE = 512;
const SHEETS = ".cache/faces";
let renderer: FaceRenderer;
let single: PreparedPhoto;
let smiling: PreparedPhoto;

beforeAll(async () => {
  renderer = await FaceRenderer.load({ width: SIZE, height: SIZE });
  single = await preparePhoto(await singlePhoto(), { size: SIZE });
  smiling = await preparePhoto(await smilingPhoto(), { size: SIZE });
  mkdirSync(SHEETS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await renderer?.dispose();
});

/** Mean absolute luma difference of two faces over a box. */
function lumaDiff(a: Uint8Array, b: Uint8Array, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(SIZE, Math.round(y1)); y++) {
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(SIZE, Math.round(x1)); x++) sum += Math.abs(a[y * SIZE + x] - b[y * SIZE + x]);
  }
  return sum / ((Math.round(x1) - Math.round(x0)) * (Math.round(y1) - Math.round(y0)));
}

/** Mean Y, U and V of a face over a box (luma pixels; chroma at half size). */
function meanColour(f: PreparedFace, x0: number, y0: number, x1: number, y1: number): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  const cw = SIZE / 2;
  const planes = [
    { off: 0, w: SIZE, k: 1 },
    { off: SIZE * SIZE, w: cw, k: 2 },
    { off: SIZE * SIZE + cw * cw, w: cw, k: 2 },
  ];
  planes.forEach(({ off, w, k }, c) => {
    let sum = 0,
      n = 0;
    for (let y = Math.round(y0 / k); y < Math.round(y1 / k); y++) {
      for (let x = Math.round(x0 / k); x < Math.round(x1 / k); x++, n++) sum += f.i420[off + y * w + x];
    }
    out[c] = sum / n;
  });
  return out;
}
const colourDistance = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Checks a prepared photo looks like a face placed by the `head` framing. */
function expectPlausibleFace(p: PreparedPhoto, faceHeight = 0.45): void {
  const { face, landmarks } = p;
  expect(face.width).toBe(SIZE);
  expect(face.height).toBe(SIZE);
  expect(face.i420.length).toBe((SIZE * SIZE * 3) / 2);
  const a = face.anchors;
  // Framed on the first look at the face; the anchors average two looks (about ±5% apart).
  expect(Math.abs(a.face.height / SIZE - faceHeight)).toBeLessThan(0.04);
  expect(Math.abs(a.face.x - SIZE / 2)).toBeLessThan(SIZE * 0.03);
  // Eyes levelled by the framing, above the mouth; the mouth in the lower face, inside its box.
  const tilt = Math.atan2(Math.abs(a.rightEye.y - a.leftEye.y), a.rightEye.x - a.leftEye.x);
  expect(tilt).toBeLessThan((8 * Math.PI) / 180);
  expect(a.leftEye.x).toBeLessThan(a.rightEye.x);
  expect(Math.max(a.leftEye.y, a.rightEye.y)).toBeLessThan(a.mouth.y - a.mouth.width * 0.5);
  const top = a.face.y - a.face.height / 2;
  const chin = a.face.y + a.face.height / 2;
  expect(a.mouth.y).toBeGreaterThan(top + 0.55 * a.face.height);
  expect(a.mouth.y).toBeLessThan(chin);
  expect(a.mouth.x - a.mouth.width / 2).toBeGreaterThan(a.face.x - a.face.width / 2);
  expect(a.mouth.x + a.mouth.width / 2).toBeLessThan(a.face.x + a.face.width / 2);
  expect(landmarks).toHaveLength(478);
  expect(landmarks[MESH.chin].y).toBeCloseTo(chin, 3);
  for (const q of landmarks) {
    expect(q.x).toBeGreaterThan(0);
    expect(q.x).toBeLessThan(SIZE);
    expect(q.y).toBeGreaterThan(0);
    expect(q.y).toBeLessThan(SIZE);
  }
}

/** Saves the contact sheet and checks that the mouth opens while the background stays. */
async function sheetAndMouth(name: string, face: PreparedFace): Promise<void> {
  const png = await renderContactSheet(renderer, face);
  expect(Array.from(png.subarray(0, 8))).toEqual(Array.from(PNG_SIGNATURE));
  writeFileSync(`${SHEETS}/${name}.sheet.png`, png);
  const rest = (await renderer.render(face, NEUTRAL_FRAME, new Uint8Array(face.i420.length))).slice();
  const open = await renderer.render(face, { ...NEUTRAL_FRAME, open: 0.7 }, new Uint8Array(face.i420.length));
  const m = face.anchors.mouth;
  expect(lumaDiff(rest, open, m.x - m.width / 2, m.y, m.x + m.width / 2, m.y + m.width * 0.3)).toBeGreaterThan(12);
  expect(lumaDiff(rest, open, 0, 0, 48, 48)).toBe(0);
  expect(lumaDiff(rest, face.i420, 0, 0, SIZE, SIZE)).toBeLessThan(1);
}

describe("preparePhoto: real photographs", () => {
  it("frames a single-person photo (head and shoulders by default)", async () => {
    expect(single.facesFound).toBe(1);
    expect(single.detail).toMatch(/^1 face found; framing "head"/);
    expectPlausibleFace(single);
    await sheetAndMouth("single", single.face);
  });

  it("keeps a smiling photo's seam just under the upper lip", async () => {
    expectPlausibleFace(smiling);
    const L = smiling.landmarks;
    expect(smiling.face.anchors.mouth.y).toBeGreaterThanOrEqual(L[13].y);
    expect(smiling.face.anchors.mouth.y).toBeLessThan(L[14].y);
    await sheetAndMouth("smiling", smiling.face);
  });

  it("takes the largest face of a group photo and says so", async () => {
    const group = await preparePhoto(demoPhoto(1), { size: SIZE });
    expect(group.facesFound).toBe(3);
    expect(group.detail).toMatch(/^3 faces found; the largest was used/);
    expectPlausibleFace(group);
    await sheetAndMouth("group", group.face);
  });

  it("chooses the bigger of two people", async () => {
    const two = await preparePhoto(await twoPeoplePhoto(), { size: SIZE });
    expect(two.facesFound).toBe(2);
    // The same face as the single-person photo (same person, same scale), not the smiling one.
    const box = single.face.anchors.face;
    const region = [box.x - box.width / 2, box.y - box.height / 2, box.x + box.width / 2, box.y + box.height / 2] as const;
    const chosen = meanColour(two.face, ...region);
    const same = colourDistance(chosen, meanColour(single.face, ...region));
    const other = colourDistance(chosen, meanColour(smiling.face, ...region));
    expect(same).toBeLessThan(6);
    expect(other).toBeGreaterThan(same * 3);
  });

  it("honours EXIF orientation", async () => {
    const turned = await preparePhoto(await exifTurned(await singlePhoto()), { size: SIZE });
    expect(turned.facesFound).toBe(1);
    expect(turned.face.anchors.mouth.x).toBeCloseTo(single.face.anchors.mouth.x, -1);
    expect(turned.face.anchors.mouth.y).toBeCloseTo(single.face.anchors.mouth.y, -1);
    expect(turned.detail).toBe(single.detail);
  });

  it("frames tighter with `face` and wider with `bust`; unknown values fall back to `head`", async () => {
    const bytes = await singlePhoto();
    const face = await preparePhoto(bytes, { size: SIZE, framing: "face" });
    const bust = await preparePhoto(bytes, { size: SIZE, framing: "bust" });
    expectPlausibleFace(face, 0.58);
    expectPlausibleFace(bust, 0.33);
    expect(face.detail).toMatch(/framing "face"/);
    const odd = await preparePhoto(bytes, { size: SIZE, framing: "cinematic" });
    expect(odd.detail).toMatch(/framing "cinematic" is not one of head, face, bust; "head" was used/);
    expect(odd.face.anchors).toEqual(single.face.anchors);
  });

  it("fills the frame softly where it reaches past the photo", async () => {
    // The same person cut just above the eyebrows: the head's top must be made up.
    const cut = new Uint8Array(
      await sharp(await singlePhoto())
        .extract({ left: 0, top: 250, width: 520, height: 650 })
        .jpeg()
        .toBuffer(),
    );
    const p = await preparePhoto(cut, { size: SIZE });
    expect(p.detail).toMatch(/past the photo's edge/);
    expectPlausibleFace(p);
    // Top row: no hard streak pattern left; neighbouring pixels differ only a little.
    const row = p.face.i420.subarray(0, SIZE);
    let jumps = 0;
    for (let x = 1; x < SIZE; x++) jumps += Math.abs(row[x] - row[x - 1]);
    expect(jumps / SIZE).toBeLessThan(2);
  });
});

describe("preparePhoto: refusals a person can read", () => {
  const refused = async (bytes: Uint8Array | Promise<Uint8Array>, message: RegExp) => {
    const err = await preparePhoto(await bytes, { size: SIZE }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PhotoFaceError);
    expect((err as Error).message).toMatch(message);
  };

  it("no face: a landscape, a solid colour", async () => {
    await refused(landscapePhoto(), /^No face was found in the photo/);
    await refused(solidPhoto(), /^No face was found in the photo/);
  });

  it("a truncated JPEG", async () => {
    await refused(truncatedJpeg(), /^The photo could not be decoded; the file looks damaged or truncated/);
  });

  it("a zip renamed .png, an empty file, an SVG", async () => {
    await refused(zipBytes(), /^The file is not an image we can read: upload a JPEG, PNG or WebP photo/);
    await refused(new Uint8Array(0), /^The file is empty/);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"/>');
    await refused(svg, /SVG image, not a photo we accept/);
  });

  it("a 20000x20000 decompression bomb, from its header, before decoding", async () => {
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(200);
    await refused(bomb, /^The photo is too large: 20000x20000 pixels \(400 MP\) is over the 50 MP limit/);
    // The decoder itself refuses it too (sharp's limitInputPixels) had the header check been skipped.
    const err = await decodeForDetection(bomb, { width: 20000, height: 20000, format: "png" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PhotoFaceError);
    expect((err as Error).message).toMatch(/too large/);
  });

  it("a size the renderer cannot take is a programming error, not a photo problem", async () => {
    const err = await preparePhoto(await singlePhoto(), { size: 511 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PhotoFaceError);
  });
});
