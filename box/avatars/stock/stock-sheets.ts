// A hand check of the stock faces (README.md here): writes docs/faces/stock-<name>.png, each face
// at rest, opening 0.35 / 0.7 / 1 and smiling (happy, open 0.5), as the renderer draws them live,
// with a close-up of the mouth under each frame.
//   node_modules/.bin/bun box/avatars/stock/stock-sheets.ts [--size=256] [--out=docs/faces]
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FaceRenderer } from "../../render/face-renderer.ts";
import { NEUTRAL_FRAME, type FrameParams } from "../../render/frame-params.ts";
import { i420ToRgba } from "../../render/i420.ts";
import { encodePng } from "../../render/png.ts";
import { restFrame } from "../../render/tone-rest.ts";
import { loadStockFaces } from "./index.ts";

const args = process.argv.slice(2);
const size = Number(args.find((a) => a.startsWith("--size="))?.slice(7) ?? 256);
const outDir = args.find((a) => a.startsWith("--out="))?.slice(6) ?? "docs/faces";

const FRAMES: FrameParams[] = [
  NEUTRAL_FRAME,
  { ...NEUTRAL_FRAME, open: 0.35 },
  { ...NEUTRAL_FRAME, open: 0.7 },
  { ...NEUTRAL_FRAME, open: 1 },
  { ...restFrame("happy"), open: 0.5 },
];

/** The `side` wide region centred on (cx, cy) of an RGBA frame, scaled to tile x tileH (bilinear). */
function zoom(rgba: Uint8Array, cx: number, cy: number, side: number, tile: number, tileH: number): Uint8Array {
  const out = new Uint8Array(tile * tileH * 4);
  const sideH = (side * tileH) / tile;
  for (let v = 0; v < tileH; v++) {
    for (let u = 0; u < tile; u++) {
      const sx = Math.min(size - 1.001, Math.max(0, cx - side / 2 + ((u + 0.5) * side) / tile - 0.5));
      const sy = Math.min(size - 1.001, Math.max(0, cy - sideH / 2 + ((v + 0.5) * side) / tile - 0.5));
      const [x0, y0] = [Math.floor(sx), Math.floor(sy)];
      const [fx, fy] = [sx - x0, sy - y0];
      for (let k = 0; k < 4; k++) {
        const px = (x: number, y: number) => rgba[(y * size + x) * 4 + k];
        const top = px(x0, y0) * (1 - fx) + px(x0 + 1, y0) * fx;
        const bottom = px(x0, y0 + 1) * (1 - fx) + px(x0 + 1, y0 + 1) * fx;
        out[(v * tile + u) * 4 + k] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return out;
}

await mkdir(outDir, { recursive: true });
const renderer = await FaceRenderer.load({ width: size, height: size });
for (const { id, face } of await loadStockFaces(size)) {
  const w = size * FRAMES.length;
  // Close-ups are wider than tall: the mouth, the lips' corners and the chin under them.
  const closeH = Math.round(size * 0.6);
  const sheet = new Uint8Array(w * (size + closeH) * 4);
  const frame = new Uint8Array(face.i420.length);
  const m = face.anchors.mouth;
  for (const [i, p] of FRAMES.entries()) {
    await renderer.render(face, p, frame);
    const rgba = i420ToRgba(frame, size, size);
    const close = zoom(rgba, m.x, m.y + m.width * 0.1, m.width * 2, size, closeH);
    for (let y = 0; y < size; y++) sheet.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), (y * w + i * size) * 4);
    for (let y = 0; y < closeH; y++) sheet.set(close.subarray(y * size * 4, (y + 1) * size * 4), ((size + y) * w + i * size) * 4);
  }
  const file = join(outDir, `${id}.png`);
  await writeFile(file, encodePng(sheet, w, size + closeH));
  console.log(`wrote ${file}`);
}
await renderer.dispose();
