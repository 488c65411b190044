// Hard photos (issue 25 "Bad input"): a moustache over the lips, a hand at a mouth corner,
// glasses, a strong side light, a face turned about 30 degrees, a very small face. Preparation
// succeeds, its note says what the avatar will not do, the face moves less (its motion limits),
// and rendered frames neither tear nor show a seam: at rest and in tones the mouth region shows
// no straight horizontal cut longer than the photo's own (a seam is straight, lips are curved);
// talking, the landmarker finds the face in every frame about as surely as in the photo and
// finds the mouth opening further as it is meant to.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FaceRenderer } from "../render/face-renderer.ts";
import { NEUTRAL_FRAME, type FrameParams } from "../render/frame-params.ts";
import type { PreparedFace } from "../render/prepared-face.ts";
import { detectedOpening, i420ToRgb, mouthRegion } from "../render/testing/face-realism-kit.ts";
import type { FaceLandmarker } from "./face-landmarker.ts";
import { photoLandmarker, preparePhoto, type PreparedPhoto } from "./prepare-photo.ts";
import {
  demoPhoto,
  glassesPhoto,
  handPhoto,
  moustachePhoto,
  sideLitPhoto,
  singlePhoto,
  tinyFacePhoto,
  turnedPhoto,
} from "./testing/photos.ts";

const SIZE = 512;
let renderer: FaceRenderer;
let landmarker: FaceLandmarker;

/** Each hard photo, what its note must say, and which motion must be lowered. */
const CASES: { id: string; photo: () => Promise<Uint8Array>; note: RegExp; lowered: ("mouth" | "head" | "brows")[] }[] = [
  {
    id: "moustache",
    photo: moustachePhoto,
    note: /a beard or moustache covers the lips; the avatar's mouth moves less/,
    lowered: ["mouth"],
  },
  { id: "hand at a corner", photo: handPhoto, note: /something covers a corner of the mouth/, lowered: ["mouth", "head"] },
  { id: "glasses", photo: glassesPhoto, note: /glasses were found; the brows move less/, lowered: ["brows"] },
  { id: "side light", photo: sideLitPhoto, note: /the light falls hard from one side; .* the mouth opens less/, lowered: ["mouth"] },
  { id: "turned 30 degrees", photo: turnedPhoto, note: /being turned, the head and mouth move less/, lowered: ["mouth", "head"] },
  {
    id: "very small face",
    photo: tinyFacePhoto,
    note: /the face is very small in the photo; the mouth and head move less/,
    lowered: ["mouth", "head"],
  },
];

/** Frames with the lips at rest: the rest frame, and tones' expressions with head motion. */
const STILL: Partial<FrameParams>[] = [
  {},
  { smile: 0.6, brow: 1, headX: 6, headY: -4, headRoll: 0.04 },
  { smile: -0.5, brow: -1, headX: -6, headY: 3 },
];

/** Talking frames at their extremes: open, wide, round (ordered by how open the mouth is meant to be). */
const TALKING: Partial<FrameParams>[] = [{ open: 0.3, wide: 1 }, { open: 0.6, round: 1 }, { open: 1 }];

const prepared = new Map<string, PreparedPhoto>();

beforeAll(async () => {
  renderer = await FaceRenderer.load({ width: SIZE, height: SIZE });
  landmarker = await photoLandmarker();
  for (const c of CASES) prepared.set(c.id, await preparePhoto(await c.photo(), { size: SIZE }));
}, 180_000);

afterAll(async () => {
  await renderer?.dispose();
});

/**
 * The longest straight horizontal edge in the mouth region, in mouth widths: the longest run of
 * neighbouring columns where one row and the next differ by more than 24 luma levels. A seam or
 * a tear is a straight cut; the lips' and an opening's edges are curved and cross rows quickly.
 */
function longestStraightEdge(i420: Uint8Array, face: PreparedFace): number {
  const r = mouthRegion(face.anchors, SIZE, SIZE);
  let longest = 0;
  for (let y = r.y0; y + 1 < r.y1; y++) {
    let run = 0;
    for (let x = r.x0; x < r.x1; x++) {
      run = Math.abs(i420[(y + 1) * SIZE + x] - i420[y * SIZE + x]) > 24 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
  }
  return longest / face.anchors.mouth.width;
}

async function render(face: PreparedFace, p: Partial<FrameParams>): Promise<Uint8Array> {
  return (await renderer.render(face, { ...NEUTRAL_FRAME, ...p }, new Uint8Array(face.i420.length))).slice();
}

async function detect(i420: Uint8Array) {
  return (await landmarker.detect(i420ToRgb(i420, SIZE, SIZE), SIZE, SIZE, { iris: false }))[0];
}

describe("hard photos (bad input)", () => {
  it("prepares each one, says in its note what the avatar will not do, and lowers that motion", () => {
    for (const c of CASES) {
      const p = prepared.get(c.id)!;
      expect(p.detail, c.id).toMatch(c.note);
      const motion = p.face.anchors.motion;
      expect(motion, c.id).toBeDefined();
      for (const k of c.lowered) expect(motion![k], `${c.id}: ${k}`).toBeLessThan(1);
    }
  });

  it("keeps a lips-apart photo's mouth as the photo shows it at rest when hair covers it or the face is tiny", () => {
    for (const id of ["moustache", "very small face"]) {
      const p = prepared.get(id)!;
      expect(p.face.anchors.mouth.gap ?? 0, id).toBe(0);
      expect(p.detail, id).toMatch(
        /the lips are apart in the photo and could not be closed cleanly; the avatar keeps them as the photo shows them at rest/,
      );
    }
  });

  it("leaves an ordinary photo alone: no hard-photo note, full motion", async () => {
    for (const bytes of [await singlePhoto(), demoPhoto(2)]) {
      const p = await preparePhoto(bytes, { size: SIZE });
      expect(p.face.anchors.motion).toBeUndefined();
      expect(p.detail).not.toMatch(/moves less|move less|opens less/);
    }
  }, 60_000);

  it("keeps the lips at rest without a seam: no straight cut in the mouth region past the photo's own, the face found as in the photo", async () => {
    for (const c of CASES) {
      const face = prepared.get(c.id)!.face;
      const photo = await detect(face.i420);
      const ownEdge = longestStraightEdge(face.i420, face);
      for (const p of STILL) {
        const frame = await render(face, p);
        const found = await detect(frame);
        const what = `${c.id} ${JSON.stringify(p)}`;
        expect(found, what).toBeDefined();
        expect(found.score, what).toBeGreaterThan(photo.score - 0.1);
        const edge = longestStraightEdge(frame, face);
        console.log(
          `[bad input] ${what}: longest straight edge ${edge.toFixed(2)} mouth widths (photo ${ownEdge.toFixed(2)}), score ${found.score.toFixed(2)}`,
        );
        expect(edge, what).toBeLessThan(Math.max(ownEdge + 0.08, 0.25));
      }
    }
  }, 240_000);

  it("talks without tearing: the face found in every frame as in the photo, the found opening growing with the intended one", async () => {
    for (const c of CASES) {
      const face = prepared.get(c.id)!.face;
      const photo = await detect(face.i420);
      const openings: number[] = [detectedOpening((await detect(await render(face, {})))!)];
      for (const p of TALKING) {
        const found = await detect(await render(face, p));
        const what = `${c.id} ${JSON.stringify(p)}`;
        expect(found, what).toBeDefined();
        expect(found.score, what).toBeGreaterThan(photo.score - 0.1);
        openings.push(detectedOpening(found));
      }
      console.log(`[bad input] ${c.id}: found openings ${openings.map((o) => o.toFixed(3)).join(" < ")}`);
      for (let i = 1; i < openings.length; i++) expect(openings[i], `${c.id} step ${i}`).toBeGreaterThan(openings[i - 1]);
    }
  }, 240_000);

  it("opens a hard face's mouth less than the same face without limits", async () => {
    const face = prepared.get("moustache")!.face;
    const free: PreparedFace = { ...face, anchors: { ...face.anchors, motion: undefined } };
    const opening = async (f: PreparedFace) => detectedOpening((await detect(await render(f, { open: 1 })))!);
    const limited = await opening(face);
    const full = await opening(free);
    console.log(`[bad input] moustache at open 1: found opening ${limited.toFixed(3)} with limits, ${full.toFixed(3)} without`);
    expect(limited).toBeLessThan(full - 0.03);
  }, 60_000);
});
