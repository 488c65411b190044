// The first look at a video (video-look.ts) on footage made here from a real photograph of three
// people: a 720p window drifting and zooming slowly over the middle person, whose face is about a
// fifth of the frame's height. A search of whole frames alone lost this face in a third of the
// samples; following it in a square around its last place must find it in every one, smoothly.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESH } from "./mesh-anchors.ts";
import { photoLandmarker } from "./prepare-photo.ts";
import { lookAtVideo, type VideoLook } from "./video-look.ts";

const SAMPLE2 = new URL("../../node_modules/@vladmandic/face-api/demo/sample2.jpg", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "video-look-"));
const SECONDS = 4;
let look: VideoLook;

beforeAll(async () => {
  const path = join(work, "drift.mp4");
  const vf = [
    "crop=ih:ih:(iw-ih)/2:0,scale=1024:1024,crop=1024:576:0:0",
    "zoompan=z='1.35+0.05*sin(in/20)':x='540-iw/zoom/2+40*sin(in/22)':y='270-ih/zoom/2+25*sin(in/17)':d=1:s=1280x720:fps=25",
    "setsar=1",
  ].join(",");
  const r = spawnSync(
    "/usr/bin/ffmpeg",
    [
      "-v",
      "error",
      "-y",
      "-loop",
      "1",
      "-framerate",
      "25",
      "-i",
      SAMPLE2,
      "-t",
      String(SECONDS),
      "-vf",
      vf,
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-pix_fmt",
      "yuv420p",
      path,
    ],
    { timeout: 60_000 },
  );
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  look = await lookAtVideo({ path, demuxer: "mov" }, { width: 1280, height: 720, durationS: SECONDS }, await photoLandmarker(), {
    minScore: 0.6,
    timeoutMs: 60_000,
  });
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("lookAtVideo", () => {
  it("finds the drifting face in every sample, 5 a second, in video pixels", () => {
    expect(look.dt).toBeCloseTo(0.2, 5);
    expect(look.samples).toHaveLength(SECONDS * 5);
    expect(look.samples.every(Boolean)).toBe(true);
    for (const m of look.samples) {
      expect(m!).toHaveLength(468);
      const nose = m![MESH.noseTip];
      // The middle person stays near the middle of the 1280x720 frame.
      expect(nose.x).toBeGreaterThan(400);
      expect(nose.x).toBeLessThan(880);
      expect(nose.y).toBeGreaterThan(200);
      expect(nose.y).toBeLessThan(620);
    }
  });

  it("follows the window's drift smoothly (the window moves right, the face left)", () => {
    const xs = look.samples.map((m) => m![MESH.noseTip].x);
    const drift = xs.map((_, i) => Math.sin((i * 0.2 * 25) / 22));
    const mx = xs.reduce((s, v) => s + v, 0) / xs.length;
    const md = drift.reduce((s, v) => s + v, 0) / drift.length;
    let ab = 0,
      aa = 0,
      bb = 0;
    for (let i = 0; i < xs.length; i++) (ab += (xs[i] - mx) * (drift[i] - md)), (aa += (xs[i] - mx) ** 2), (bb += (drift[i] - md) ** 2);
    expect(ab / Math.sqrt(aa * bb)).toBeLessThan(-0.9);
    // Between two samples (0.2 s) the window moves the face by at most about 25 px here.
    for (let i = 1; i < xs.length; i++) expect(Math.abs(xs[i] - xs[i - 1])).toBeLessThan(40);
  });
});
