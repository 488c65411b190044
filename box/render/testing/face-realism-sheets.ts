// The contact sheets checked into docs/faces/ (issue 25 item 5; box/render/README.md "Face
// realism"): for each test photo, the photo and rendered frames at rest, on several visemes and
// in each tone, as head tiles with the mouth close-up under each.
//   node_modules/.bin/bun box/render/testing/face-realism-sheets.ts [--out=docs/faces]
// Small on purpose (palette PNG, modest tiles): each sheet stays well under 400 KB.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp, { type OverlayOptions } from "sharp";
import { preparePhoto } from "../../faces/prepare-photo.ts";
import { demoPhoto, singlePhoto, smilingPhoto } from "../../faces/testing/photos.ts";
import { visemeTarget, type Viseme } from "../../lipsync/visemes.ts";
import { FaceRenderer } from "../face-renderer.ts";
import { NEUTRAL_FRAME, TONES, type FrameParams } from "../frame-params.ts";
import { i420ToRgba } from "../i420.ts";
import type { PreparedFace } from "../prepared-face.ts";
import { restFrame } from "../tone-rest.ts";

const outDir =
  process.argv
    .slice(2)
    .find((a) => a.startsWith("--out="))
    ?.slice(6) ?? "docs/faces";
const SIZE = 512;
const TILE = 176;
const VISEMES: Viseme[] = ["aa", "E", "I", "O", "U", "FF"];

/** Tiles left to right: the photo, rest, visemes, then every tone at rest (null: the photo itself). */
const FRAMES: (FrameParams | null)[] = [
  null,
  NEUTRAL_FRAME,
  ...VISEMES.map((v) => ({ ...NEUTRAL_FRAME, ...visemeTarget(v) })),
  ...TONES.filter((t) => t !== "neutral").map((t) => restFrame(t)),
];
export const SHEET_LABELS = ["photo", "rest", ...VISEMES.map((v) => `viseme ${v}`), ...TONES.filter((t) => t !== "neutral")];

/** A square of the frame, scaled to TILE (RGBA). */
async function tile(rgba: Uint8Array, left: number, top: number, side: number): Promise<Buffer> {
  const l = Math.max(0, Math.min(SIZE - side, Math.round(left)));
  const t = Math.max(0, Math.min(SIZE - side, Math.round(top)));
  return sharp(rgba, { raw: { width: SIZE, height: SIZE, channels: 4 } })
    .extract({ left: l, top: t, width: side, height: side })
    .resize(TILE, TILE, { kernel: "lanczos3" })
    .raw()
    .toBuffer();
}

async function sheet(renderer: FaceRenderer, face: PreparedFace): Promise<Buffer> {
  const cols = FRAMES.length;
  const composites: OverlayOptions[] = [];
  const frame = new Uint8Array(face.i420.length);
  const f = face.anchors.face;
  const m = face.anchors.mouth;
  const headSide = Math.min(SIZE, Math.round(f.height * 1.25));
  const mouthSide = Math.round(m.width * 2.2);
  for (const [i, p] of FRAMES.entries()) {
    if (p) await renderer.render(face, p, frame);
    else frame.set(face.i420);
    const rgba = i420ToRgba(frame, SIZE, SIZE);
    const raw = { width: TILE, height: TILE, channels: 4 as const };
    composites.push({ input: await tile(rgba, f.x - headSide / 2, f.y - headSide / 2, headSide), raw, left: i * TILE, top: 0 });
    composites.push({ input: await tile(rgba, m.x - mouthSide / 2, m.y - mouthSide * 0.4, mouthSide), raw, left: i * TILE, top: TILE });
  }
  return sharp({ create: { width: cols * TILE, height: 2 * TILE, channels: 4, background: "#ffffff" } })
    .composite(composites)
    .png({ palette: true, quality: 90, effort: 8 })
    .toBuffer();
}

if (import.meta.main) {
  await mkdir(outDir, { recursive: true });
  const renderer = await FaceRenderer.load({ width: SIZE, height: SIZE });
  const photos: [string, () => Promise<Uint8Array>][] = [
    ["single-teeth", singlePhoto],
    ["smiling-teeth", smilingPhoto],
    ["sample2-lips-together", async () => demoPhoto(2)],
    ["sample4-lips-together", async () => demoPhoto(4)],
  ];
  for (const [name, bytes] of photos) {
    const face = (await preparePhoto(await bytes(), { size: SIZE })).face;
    const png = await sheet(renderer, face);
    await writeFile(join(outDir, `${name}.png`), png);
    console.log(`wrote ${name}.png (${Math.round(png.length / 1024)} KB): ${SHEET_LABELS.join(", ")}`);
  }
  await renderer.dispose();
}
