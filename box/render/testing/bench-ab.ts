// A/B of two face-warp models on the same faces, alternating in chunks (so a busy spell on a
// shared machine hits both alike), crop mode, one thread: CPU per frame for each.
//   node_modules/.bin/bun box/render/testing/bench-ab.ts old.onnx [new.onnx] [--frames 400]
// Both run as custom models with crop: true (boxes from today's crop-box.ts, no breathing added
// outside the box), so neither gets work the other does not; "new" defaults to the checked-in
// built-in model. Faces: the stock faces and two photos (box/faces/testing/photos.ts).
import { fileURLToPath } from "node:url";
import { loadStockFaces } from "../../avatars/stock/index.ts";
import { preparePhoto } from "../../faces/prepare-photo.ts";
import { singlePhoto, smilingPhoto } from "../../faces/testing/photos.ts";
import { FaceRenderer } from "../face-renderer.ts";
import { NEUTRAL_FRAME, type FrameParams } from "../frame-params.ts";
import type { PreparedFace } from "../prepared-face.ts";

const paths = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--frames");
const oldPath = paths[0];
const newPath = paths[1] ?? fileURLToPath(new URL("../models/face-warp.onnx", import.meta.url));
const fi = process.argv.indexOf("--frames");
const frames = fi > 0 ? Number(process.argv[fi + 1]) : 400;
const SIZE = 512;
const CHUNK = 25;

/** The same talking, blinking, moving face as scripts/bench/renderer.ts. */
function frameAt(i: number): FrameParams {
  const t = i / 25;
  return {
    ...NEUTRAL_FRAME,
    open: Math.max(0, Math.sin(t * 9)) * 0.8,
    wide: Math.max(0, Math.sin(t * 5)) * 0.4,
    round: Math.max(0, Math.cos(t * 4)) * 0.3,
    smile: 0.3 * Math.sin(t * 0.7),
    blink: i % 90 < 4 ? 1 : 0,
    brow: 0.3 * Math.sin(t * 1.3),
    headX: 3 * Math.sin(t * 0.9),
    headY: 2 * Math.sin(t * 1.1),
    headRoll: 0.03 * Math.sin(t * 0.6),
    breathe: 0.5 + 0.5 * Math.sin(t * 1.6),
  };
}

const load = (modelPath: string) => FaceRenderer.load({ width: SIZE, height: SIZE, threads: 1, crop: true, modelPath });
const renderers: [string, FaceRenderer][] = [
  ["old", await load(oldPath)],
  ["new", await load(newPath)],
];
const faces: [string, PreparedFace][] = [
  ...(await loadStockFaces(SIZE)).map((s): [string, PreparedFace] => [s.id, s.face]),
  ["photo-single", (await preparePhoto(await singlePhoto(), { size: SIZE })).face],
  ["photo-smiling", (await preparePhoto(await smilingPhoto(), { size: SIZE })).face],
];
const out = new Uint8Array((SIZE * SIZE * 3) / 2);
const median = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];
for (const [id, face] of faces) {
  const chunks: Record<string, number[]> = { old: [], new: [] };
  for (const [, r] of renderers) for (let i = 0; i < 30; i++) await r.render(face, frameAt(i), out);
  for (let i = 0; i < frames; i += CHUNK) {
    for (const [name, r] of renderers) {
      const c0 = process.cpuUsage();
      for (let j = i; j < i + CHUNK; j++) await r.render(face, frameAt(j), out);
      const c = process.cpuUsage(c0);
      chunks[name].push((c.user + c.system) / 1000 / CHUNK);
    }
  }
  const b = renderers[1][1].cropBox(face);
  const box = b ? `${b.x1 - b.x0}x${b.y1 - b.y0}` : "whole frame";
  // Medians of the per-chunk CPU per frame: a busy spell on a shared machine skews a mean.
  const f = (n: string) => `${median(chunks[n]).toFixed(2)} ms (${(1000 / median(chunks[n])).toFixed(0)} fps/core)`;
  const ratio = median(chunks.new.map((v, i) => v / chunks.old[i]));
  console.log(`${id.padEnd(14)} box ${box}: old ${f("old")}, new ${f("new")}, new/old per chunk (median) ${ratio.toFixed(3)}`);
}
for (const [, r] of renderers) await r.dispose();
