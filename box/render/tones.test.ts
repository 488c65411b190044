// Tones show on a face (issue 25 item 3): each tone's resting expression moves the corners,
// cheeks, eyes or brows of a real photo (and of each stock face) enough to see, not a pixel or two.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadStockFaces } from "../avatars/stock/index.ts";
import { preparePhoto } from "../faces/prepare-photo.ts";
import { demoPhoto, singlePhoto } from "../faces/testing/photos.ts";
import { FaceRenderer } from "./face-renderer.ts";
import { NEUTRAL_FRAME, TONES, type FrameParams } from "./frame-params.ts";
import type { PreparedFace } from "./prepared-face.ts";
import { restFrame } from "./tone-rest.ts";

const SIZE = 512;
let renderer: FaceRenderer;
let faces: { id: string; face: PreparedFace }[];

beforeAll(async () => {
  renderer = await FaceRenderer.load({ width: SIZE, height: SIZE });
  faces = [
    { id: "single", face: (await preparePhoto(await singlePhoto(), { size: SIZE })).face },
    { id: "sample2", face: (await preparePhoto(demoPhoto(2), { size: SIZE })).face },
    // The drawn stock faces take the same resting expressions.
    ...(await loadStockFaces(SIZE)).map((s) => ({ id: s.id, face: s.face })),
  ];
}, 120_000);

afterAll(async () => {
  await renderer?.dispose();
});

const render = async (face: PreparedFace, p: FrameParams) => (await renderer.render(face, p, new Uint8Array(face.i420.length))).slice();

/** Share of the face's box (hairline to chin, cheek to cheek) whose luma changed by 10 levels or more. */
function changedShare(a: Uint8Array, b: Uint8Array, face: PreparedFace): number {
  const f = face.anchors.face;
  let n = 0,
    total = 0;
  for (let y = Math.round(f.y - f.height / 2); y < f.y + f.height / 2; y++) {
    for (let x = Math.round(f.x - f.width / 2); x < f.x + f.width / 2; x++, total++) {
      if (Math.abs(a[y * SIZE + x] - b[y * SIZE + x]) >= 10) n++;
    }
  }
  return n / total;
}

describe("tones", () => {
  it("each visibly changes a real face and each stock face at rest (at least 2% of the face moves by 10 levels or more)", async () => {
    for (const { id, face } of faces) {
      const neutral = await render(face, NEUTRAL_FRAME);
      const shares = [];
      for (const tone of TONES.filter((t) => t !== "neutral")) {
        const share = changedShare(await render(face, restFrame(tone)), neutral, face);
        shares.push(`${tone} ${(share * 100).toFixed(1)}%`);
        expect(share, `${id} ${tone}`).toBeGreaterThanOrEqual(0.02);
      }
      console.log(`[tones] ${id}: ${shares.join(", ")}`);
    }
  });
});
