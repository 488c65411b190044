// Hand check of the hard photos (issue 25 "Bad input"; box/render/README.md "Hard photos"): per
// photo, the photo, rest and a few visemes and tones as head tiles, then the mouth close-up as
// rendered with the face's motion limits, then the same without them, to see what the limits buy.
//   node_modules/.bin/bun box/faces/testing/hard-photo-sheets.ts [--out=.cache/faces]
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp, { type OverlayOptions } from "sharp";
import { visemeTarget, type Viseme } from "../../lipsync/visemes.ts";
import { FaceRenderer } from "../../render/face-renderer.ts";
import { NEUTRAL_FRAME, type FrameParams } from "../../render/frame-params.ts";
import { i420ToRgba } from "../../render/i420.ts";
import type { PreparedFace } from "../../render/prepared-face.ts";
import { restFrame } from "../../render/tone-rest.ts";
import { preparePhoto } from "../prepare-photo.ts";
import { glassesPhoto, handPhoto, moustachePhoto, sideLitPhoto, tinyFacePhoto, turnedPhoto } from "./photos.ts";

const outDir =
  process.argv
    .slice(2)
    .find((a) => a.startsWith("--out="))
    ?.slice(6) ?? ".cache/faces";
const SIZE = 512;
const TILE = 160;
const VISEMES: Viseme[] = ["aa", "E", "O", "U"];
const FRAMES: (FrameParams | null)[] = [
  null,
  NEUTRAL_FRAME,
  ...VISEMES.map((v) => ({ ...NEUTRAL_FRAME, ...visemeTarget(v) })),
  { ...restFrame("happy"), headX: 6, headY: -3, headRoll: 0.04 },
  restFrame("surprised"),
];

async function tile(rgba: Uint8Array, left: number, top: number, side: number): Promise<Buffer> {
  const s = Math.min(SIZE, Math.round(side));
  const l = Math.max(0, Math.min(SIZE - s, Math.round(left)));
  const t = Math.max(0, Math.min(SIZE - s, Math.round(top)));
  return sharp(rgba, { raw: { width: SIZE, height: SIZE, channels: 4 } })
    .extract({ left: l, top: t, width: s, height: s })
    .resize(TILE, TILE)
    .raw()
    .toBuffer();
}

async function sheet(renderer: FaceRenderer, face: PreparedFace): Promise<Buffer> {
  const free: PreparedFace = { ...face, anchors: { ...face.anchors, motion: undefined } };
  const composites: OverlayOptions[] = [];
  const frame = new Uint8Array(face.i420.length);
  const { face: f, mouth: m } = face.anchors;
  const headSide = f.height * 1.25;
  const mouthSide = m.width * 2.2;
  const raw = { width: TILE, height: TILE, channels: 4 as const };
  for (const [i, p] of FRAMES.entries()) {
    for (const [row, which] of [
      [0, face],
      [2, free],
    ] as const) {
      if (p) await renderer.render(which, p, frame);
      else frame.set(face.i420);
      const rgba = i420ToRgba(frame, SIZE, SIZE);
      if (row === 0)
        composites.push({ input: await tile(rgba, f.x - headSide / 2, f.y - headSide / 2, headSide), raw, left: i * TILE, top: 0 });
      composites.push({
        input: await tile(rgba, m.x - mouthSide / 2, m.y - mouthSide * 0.4, mouthSide),
        raw,
        left: i * TILE,
        top: (row === 0 ? 1 : 2) * TILE,
      });
    }
  }
  return sharp({ create: { width: FRAMES.length * TILE, height: 3 * TILE, channels: 4, background: "#ffffff" } })
    .composite(composites)
    .png()
    .toBuffer();
}

if (import.meta.main) {
  await mkdir(outDir, { recursive: true });
  const renderer = await FaceRenderer.load({ width: SIZE, height: SIZE });
  const photos: [string, () => Promise<Uint8Array>][] = [
    ["moustache", moustachePhoto],
    ["hand", handPhoto],
    ["glasses", glassesPhoto],
    ["side-light", sideLitPhoto],
    ["turned", turnedPhoto],
    ["tiny", tinyFacePhoto],
  ];
  const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  for (const [name, bytes] of photos) {
    if (only.length && !only.includes(name)) continue;
    const prepared = await preparePhoto(await bytes(), { size: SIZE });
    await writeFile(join(outDir, `hard-${name}.png`), await sheet(renderer, prepared.face));
    console.log(`hard-${name}.png: ${JSON.stringify(prepared.face.anchors.motion)}; ${prepared.detail}`);
  }
  await renderer.dispose();
}
