// Video preparation with the real face mesh on a video made here from a real photograph: two
// seconds without a face, then a face panning across the frame. The loop is taken where the face
// is, capped, cut at the renderer's size, and its anchors follow the face frame by frame. A
// contact sheet of talking frames rendered on loop frames lands in .cache/faces/.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeVideo } from "../avatars/own/video.ts";
import { FaceRenderer } from "../render/face-renderer.ts";
import { renderContactSheet } from "./contact-sheet.ts";
import { prepareVideo, VideoFaceError, type PreparedVideo } from "./prepare-video.ts";

const SAMPLE6 = new URL("../../node_modules/@vladmandic/face-api/demo/sample6.jpg", import.meta.url).pathname;
const SHEETS = new URL("../../.cache/faces/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "prepare-video-"));
/** Left edge of the 640 px window over sample6.jpg at `t` seconds into the face part. */
const panX = (t: number) => 480 + 70 * Math.sin((2 * Math.PI * t) / 4);

function ffmpeg(args: string[], name: string): string {
  const out = join(work, name);
  const r = spawnSync("/usr/bin/ffmpeg", ["-v", "error", "-y", ...args, out], { timeout: 60_000 });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return out;
}

async function source(path: string) {
  const info = await probeVideo(path);
  return { path, demuxer: info.demuxer, width: info.displayWidth, height: info.displayHeight, durationS: info.durationS };
}

const correlation = (a: number[], b: number[]) => {
  const ma = a.reduce((s, v) => s + v, 0) / a.length;
  const mb = b.reduce((s, v) => s + v, 0) / b.length;
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < a.length; i++) (ab += (a[i] - ma) * (b[i] - mb)), (aa += (a[i] - ma) ** 2), (bb += (b[i] - mb) ** 2);
  return ab / Math.sqrt(aa * bb);
};

let video: PreparedVideo;

beforeAll(async () => {
  const path = ffmpeg(
    [
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=360x484:rate=25:duration=2",
      "-loop",
      "1",
      "-t",
      "4",
      "-i",
      SAMPLE6,
      "-filter_complex",
      "[0]format=yuv420p,setsar=1[a];[1]fps=25,crop=640:860:x='480+70*sin(2*PI*t/4)':y='110+30*sin(2*PI*t/2)',scale=360:484,setsar=1,format=yuv420p[b];[a][b]concat=n=2:v=1[v]",
      "-map",
      "[v]",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
    ],
    "bars-then-face.mp4",
  );
  video = await prepareVideo(await source(path), { size: 512, maxLoopSeconds: 3 });
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("prepareVideo", () => {
  it("loops where the face is, at most the longest loop, at 25 fps and the renderer's size", () => {
    expect(video.loop.startS).toBeGreaterThanOrEqual(1.8);
    expect(video.loop.startS).toBeLessThanOrEqual(3.2);
    expect(video.frames).toHaveLength(75);
    expect(video.anchors).toHaveLength(75);
    for (const f of video.frames) expect(f.length).toBe(512 * 512 * 1.5);
    expect(video.face.i420).toBe(video.frames[0]);
    expect(video.facesFound).toBe(1);
    expect(video.detail).toMatch(
      /^1 face found; framing "head"; idle loop of 3\.0 s from [23]\.\d s of the video, played forwards then backwards/,
    );
  });

  it("has anchors that follow the face as it moves (the window pans right, the face moves left)", () => {
    const mouthX = video.anchors.map((a) => a.mouth.x);
    const pan = mouthX.map((_, i) => panX(video.loop.startS - 2 + i / 25));
    expect(Math.max(...mouthX) - Math.min(...mouthX)).toBeGreaterThan(30);
    expect(correlation(mouthX, pan)).toBeLessThan(-0.95);
    // Frame to frame the anchors move smoothly: no jump larger than the pan's own speed allows.
    for (let i = 1; i < mouthX.length; i++) expect(Math.abs(mouthX[i] - mouthX[i - 1])).toBeLessThan(6);
    // ...and without shaking: the pan's speed changes by under half a pixel a frame, the anchors'
    // by under 1.5 px (the detector's own frame-to-frame noise is about 2 px before smoothing).
    for (let i = 2; i < mouthX.length; i++) expect(Math.abs(mouthX[i] - 2 * mouthX[i - 1] + mouthX[i - 2])).toBeLessThan(1.5);
    for (const a of video.anchors) {
      expect(a.mouth.y).toBeGreaterThan(a.leftEye.y + 20);
      expect(a.face.height).toBeGreaterThan(150);
    }
  });

  it("renders talking frames on loop frames (contact sheet in .cache/faces/)", async () => {
    const renderer = await FaceRenderer.load({ width: 512, height: 512, threads: 1 });
    try {
      mkdirSync(SHEETS, { recursive: true });
      const mid = Math.floor(video.frames.length / 2);
      writeFileSync(join(SHEETS, "video-pan.first.sheet.png"), await renderContactSheet(renderer, video.face));
      writeFileSync(
        join(SHEETS, "video-pan.middle.sheet.png"),
        await renderContactSheet(renderer, { width: 512, height: 512, i420: video.frames[mid], anchors: video.anchors[mid] }),
      );
    } finally {
      await renderer.dispose();
    }
    expect(readFileSync(join(SHEETS, "video-pan.middle.sheet.png")).subarray(1, 4).toString()).toBe("PNG");
  });

  it("refuses a video without a face with a sentence for the uploader", async () => {
    const path = ffmpeg(
      ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "1", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"],
      "bars.mp4",
    );
    const err = await prepareVideo(await source(path), { size: 512 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoFaceError);
    expect((err as Error).message).toMatch(/^No face was found in the video\./);
  });
});
