// A drawn portrait really can become a box avatar: the embedded generator's PNG decodes at its
// stated size, and the box's own face finder (the photo preparation a `POST /api/avatar` upload
// goes through) finds exactly one face in portraits drawn from very different descriptions.
// Writes a contact sheet to .cache/portraits/sheet.png for a person to look at.
import { mkdirSync } from "node:fs";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { preparePhoto } from "../../box/faces/prepare-photo.ts";
import { EMBEDDED_PORTRAIT_SIZE, EmbeddedPortraitGenerator, type GeneratedPortrait } from "./generator.ts";
import { sharpRasterise } from "./sharp-rasterise.ts";

const DESCRIPTIONS = [
  "an elderly man with glasses, grey hair, a beard and a blue shirt, smiling",
  "a young woman with long red hair, green eyes and freckles, cheerful",
  "a serious middle-aged man with a moustache, bald, in a navy suit",
  "a calm woman in her thirties with curly black hair, dark skin, round glasses and a yellow sweater",
  "a 70-year-old woman with white hair in a bun and a lavender cardigan, kind",
  "a man with a goatee, short brown hair and a green hoodie",
];
const SHEET = ".cache/portraits";

let portraits: GeneratedPortrait[];

beforeAll(async () => {
  const gen = new EmbeddedPortraitGenerator(sharpRasterise);
  portraits = [];
  for (const [i, d] of DESCRIPTIONS.entries()) portraits.push(await gen.generate(d, 1000 + i));
  const tile = 384;
  mkdirSync(SHEET, { recursive: true });
  const tiles = await Promise.all(
    portraits.map(async (p, i) => ({
      input: await sharp(p.bytes).resize(tile, tile).png().toBuffer(),
      left: (i % 3) * tile,
      top: Math.floor(i / 3) * tile,
    })),
  );
  await sharp({ create: { width: 3 * tile, height: 2 * tile, channels: 3, background: "#ffffff" } })
    .composite(tiles)
    .png()
    .toFile(`${SHEET}/sheet.png`);
}, 120_000);

describe("embedded portraits", () => {
  it("are PNGs of the stated size", async () => {
    for (const p of portraits) {
      const meta = await sharp(p.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", EMBEDDED_PORTRAIT_SIZE, EMBEDDED_PORTRAIT_SIZE]);
      expect(p).toMatchObject({ contentType: "image/png", width: EMBEDDED_PORTRAIT_SIZE, height: EMBEDDED_PORTRAIT_SIZE });
    }
  });

  it("have one face the box's face finder finds", async () => {
    for (const [i, p] of portraits.entries()) {
      const prepared = await preparePhoto(p.bytes, { size: 512 });
      expect(prepared.facesFound, DESCRIPTIONS[i]).toBe(1);
      // The face fills a sensible part of the frame, eyes above the mouth.
      const { leftEye, rightEye, mouth } = prepared.face.anchors;
      expect(leftEye.x).toBeLessThan(rightEye.x);
      expect(mouth.y).toBeGreaterThan(leftEye.y);
    }
  }, 120_000);
});
