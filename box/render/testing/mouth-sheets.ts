// A hand check of the mouth on real photos and stock faces (box/render/README.md "Mouth"):
//   node_modules/.bin/bun box/render/testing/mouth-sheets.ts <prefix> [--out=.cache/faces] [--only=single,smiling]
// Writes <prefix>-<name>.png (the contact sheet of box/faces/contact-sheet.ts) and
// <prefix>-<name>.mouth.png (mouth close-ups of the photo itself, then at rest, open 0.35/0.7/1
// and smiling, large) for
// the face-api demo photos (crops of single people and the largest face of group photos) and
// one stock face.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadStockFaces } from "../../avatars/stock/index.ts";
import { renderContactSheet } from "../../faces/contact-sheet.ts";
import { preparePhoto } from "../../faces/prepare-photo.ts";
import { demoPhoto, singlePhoto, smilingPhoto } from "../../faces/testing/photos.ts";
import { FaceRenderer } from "../face-renderer.ts";
import { NEUTRAL_FRAME, type FrameParams } from "../frame-params.ts";
import { i420ToRgba } from "../i420.ts";
import { encodePng } from "../png.ts";
import type { PreparedFace } from "../prepared-face.ts";
import { restFrame } from "../tone-rest.ts";

const args = process.argv.slice(2);
const prefix = args.find((a) => !a.startsWith("--")) ?? "sheet";
const outDir = args.find((a) => a.startsWith("--out="))?.slice(6) ?? ".cache/faces";
/** `--only=single,smiling`: just those faces. */
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const SIZE = 512;
const ZOOM = 384;

const FRAMES: FrameParams[] = [
  NEUTRAL_FRAME,
  { ...NEUTRAL_FRAME, open: 0.35 },
  { ...NEUTRAL_FRAME, open: 0.7 },
  { ...NEUTRAL_FRAME, open: 1 },
  { ...restFrame("happy"), open: 0.5 },
];

/** The lower face (mouth to below the chin) of a frame, scaled to ZOOM x ZOOM (nearest). */
function lowerFace(rgba: Uint8Array, face: PreparedFace): Uint8Array {
  const m = face.anchors.mouth;
  const side = m.width * 2.6;
  const x0 = m.x - side / 2;
  const y0 = m.y - side * 0.3;
  const out = new Uint8Array(ZOOM * ZOOM * 4);
  for (let v = 0; v < ZOOM; v++) {
    for (let u = 0; u < ZOOM; u++) {
      const sx = Math.min(SIZE - 1, Math.max(0, Math.floor(x0 + (u * side) / ZOOM)));
      const sy = Math.min(SIZE - 1, Math.max(0, Math.floor(y0 + (v * side) / ZOOM)));
      out.set(rgba.subarray((sy * SIZE + sx) * 4, (sy * SIZE + sx) * 4 + 4), (v * ZOOM + u) * 4);
    }
  }
  return out;
}

async function mouthStrip(renderer: FaceRenderer, face: PreparedFace): Promise<Uint8Array> {
  const w = ZOOM * (FRAMES.length + 1);
  const strip = new Uint8Array(w * ZOOM * 4);
  const frame = new Uint8Array(face.i420.length);
  // The first tile is the picture itself, to compare the rest frame with.
  for (const [i, p] of [null, ...FRAMES].entries()) {
    if (p) await renderer.render(face, p, frame);
    else frame.set(face.i420);
    const tile = lowerFace(i420ToRgba(frame, SIZE, SIZE), face);
    for (let y = 0; y < ZOOM; y++) strip.set(tile.subarray(y * ZOOM * 4, (y + 1) * ZOOM * 4), (y * w + i * ZOOM) * 4);
  }
  return encodePng(strip, w, ZOOM);
}

await mkdir(outDir, { recursive: true });
const renderer = await FaceRenderer.load({ width: SIZE, height: SIZE });
const faces: [string, () => Promise<PreparedFace>][] = [
  ["single", async () => (await preparePhoto(await singlePhoto(), { size: SIZE })).face],
  ["smiling", async () => (await preparePhoto(await smilingPhoto(), { size: SIZE })).face],
  ...([1, 2, 4, 5] as const).map((n): [string, () => Promise<PreparedFace>] => [
    `sample${n}`,
    async () => (await preparePhoto(demoPhoto(n), { size: SIZE })).face,
  ]),
  ["stock", async () => (await loadStockFaces(SIZE))[0].face],
];
for (const [name, load] of faces) {
  if (only && !only.includes(name)) continue;
  const face = await load();
  await writeFile(join(outDir, `${prefix}-${name}.png`), await renderContactSheet(renderer, face));
  await writeFile(join(outDir, `${prefix}-${name}.mouth.png`), await mouthStrip(renderer, face));
  console.log(`wrote ${prefix}-${name}.png, .mouth.png`);
}
await renderer.dispose();
