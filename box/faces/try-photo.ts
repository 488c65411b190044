// A hand check of photo preparation (runs under Bun, like the box, and under Node/tsx):
//   node_modules/.bin/bun box/faces/try-photo.ts photo.jpg [more.jpg ...] [--framing=face] [--out=.cache/faces]
// Prints what preparePhoto said and how long it took, and writes <name>.sheet.png (contact sheet
// of talking frames rendered by the real renderer) for each photo.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { FaceRenderer } from "../render/face-renderer.ts";
import { renderContactSheet } from "./contact-sheet.ts";
import { photoLandmarker, preparePhoto } from "./prepare-photo.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const photos = args.filter((a) => !a.startsWith("--"));
if (photos.length === 0) {
  console.error("usage: try-photo.ts photo.jpg [...] [--framing=head|face|bust] [--size=512] [--out=.cache/faces]");
  process.exit(2);
}
const size = Number(flag("size") ?? 512);
const outDir = flag("out") ?? ".cache/faces";
await mkdir(outDir, { recursive: true });

let t = performance.now();
await photoLandmarker();
console.log(
  `landmarker loaded in ${Math.round(performance.now() - t)} ms (${process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`})`,
);
const renderer = await FaceRenderer.load({ width: size, height: size });

for (const path of photos) {
  const bytes = new Uint8Array(await readFile(path));
  for (const run of [1, 2]) {
    t = performance.now();
    try {
      const photo = await preparePhoto(bytes, { size, framing: flag("framing") });
      const ms = Math.round(performance.now() - t);
      console.log(`${path} (run ${run}): ${ms} ms: ${photo.detail}`);
      if (run === 2) {
        const out = join(outDir, `${basename(path, extname(path))}.sheet.png`);
        await writeFile(out, await renderContactSheet(renderer, photo.face));
        console.log(`  anchors ${JSON.stringify(photo.face.anchors, (_, v) => (typeof v === "number" ? Math.round(v * 10) / 10 : v))}`);
        console.log(`  wrote ${out}`);
      }
    } catch (err) {
      console.log(`${path}: ${(err as Error).name}: ${(err as Error).message}`);
      break;
    }
  }
}
renderer.dispose();
