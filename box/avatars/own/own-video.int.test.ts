// Integration: a video keeps the motion it was filmed with (issue 10 item 3). The real Bun box and
// the real preparer: a short video made here from a real photograph (a face that pans across the
// frame) becomes an idle loop on the volume with anchors that follow the face; the live stream
// plays it (its picture changes while idle), a take__<tone> is that tone's own loop, and a video
// without a face ends failed. A contact sheet of live frames lands in .cache/faces/.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { i420ToRgba } from "../../render/i420.ts";
import { encodePng } from "../../render/png.ts";
import { WrtcClient, regionDiff, type ReceivedFrame } from "../../media/testing/wrtc-client.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";
import { sha256Hex } from "../../auth/principal.ts";
import { ownerDir } from "./ids.ts";
import { parseLoopMeta } from "./manifest.ts";

const KEY = "own_video_key";
const DEMO = new URL("../../../node_modules/@vladmandic/face-api/demo/", import.meta.url);
const work = mkdtempSync(join(tmpdir(), "own-video-"));
const dataDir = join(work, "volume");
const SHEETS = new URL("../../../.cache/faces/", import.meta.url).pathname;
const FACE_BOX = { x: 96, y: 64, width: 320, height: 352 };

let box: RunningBox;

function ffmpeg(args: string[], out: string): Uint8Array {
  const r = spawnSync("/usr/bin/ffmpeg", ["-v", "error", "-y", ...args, out], { timeout: 60_000 });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return new Uint8Array(readFileSync(out));
}

/** One person from sample6.jpg: a 640x860 window that pans 70 px left-right (4 s period) and 30 px up-down. */
const PAN = { seconds: 4, x: (t: number) => 480 + 70 * Math.sin((2 * Math.PI * t) / 4) };
const panVideo = () =>
  ffmpeg(
    [
      "-loop",
      "1",
      "-i",
      new URL("sample6.jpg", DEMO).pathname,
      "-t",
      String(PAN.seconds),
      "-r",
      "25",
      "-vf",
      "crop=640:860:x='480+70*sin(2*PI*t/4)':y='110+30*sin(2*PI*t/2)',scale=360:-2,format=yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
    ],
    join(work, "pan.mp4"),
  );
/** The same person, still (a take: the picture never changes). */
const stillVideo = () =>
  ffmpeg(
    [
      "-loop",
      "1",
      "-i",
      new URL("sample6.jpg", DEMO).pathname,
      "-t",
      "3",
      "-r",
      "25",
      "-vf",
      "crop=640:860:480:110,scale=360:-2,format=yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
    ],
    join(work, "still.mp4"),
  );
/** Moving colour bars: no face anywhere. */
const noFaceVideo = () =>
  ffmpeg(
    ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"],
    join(work, "bars.mp4"),
  );

async function send(method: string, path: string, body?: FormData | object) {
  const headers: Record<string, string> = { "x-api-key": KEY };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) (payload = JSON.stringify(body)), (headers["content-type"] = "application/json");
  const res = await fetch(box.url + path, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, json: (text.startsWith("{") ? JSON.parse(text) : {}) as Record<string, any> };
}

function upload(parts: [string, string | [Uint8Array, string]][]) {
  const f = new FormData();
  for (const [name, v] of parts) f.append(name, typeof v === "string" ? v : new File([v[0] as Uint8Array<ArrayBuffer>], v[1]));
  return send("POST", "/api/avatar", f);
}

async function settled(avatar: string, timeoutMs = 120_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { json } = await send("GET", "/api/avatars");
    const journal = json.builds[avatar] as Record<string, any>[] | undefined;
    if (!(json.preparing as string[]).some((v) => v === avatar || v.startsWith(`${avatar}__`)) && journal?.length) return journal.at(-1)!;
    if (Date.now() > deadline) throw new Error(`${avatar} still preparing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * Mean change inside the face box between frames about half a second apart (luma, 0-255): on a
 * busy machine a frame can repeat now and then, so consecutive frames alone would undercount.
 */
function motion(frames: ReceivedFrame[]): number {
  let sum = 0;
  let n = 0;
  for (let i = 12; i < frames.length; i++, n++) sum += regionDiff(frames[i - 12], frames[i], FACE_BOX);
  return sum / Math.max(1, n);
}

/** Streams `avatar` for `seconds` of idle (and an optional talk), answering the frames received. */
async function live(avatar: string, seconds: number, talk?: string): Promise<{ idle: ReceivedFrame[]; talking: ReceivedFrame[] }> {
  const media = new WrtcClient(200);
  try {
    await media.connect(async (offer) => {
      const r = await send("POST", "/connect", { ...offer, avatar });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return r.json as { sdp: string; type: string };
    });
    await media.waitForFirstFrame(20_000);
    const from = performance.now() + 500;
    await new Promise((r) => setTimeout(r, 500 + seconds * 1000));
    const idle = media.recent.filter((f) => f.at >= from);
    let talking: ReceivedFrame[] = [];
    if (talk) {
      const t0 = performance.now();
      expect((await send("POST", "/api/talk", { text: talk })).status).toBe(200);
      await media.until(() => media.audioRmsOver(200) > 500, 8000, "speech audio");
      await new Promise((r) => setTimeout(r, 1500));
      talking = media.recent.filter((f) => f.at >= t0);
    }
    return { idle, talking };
  } finally {
    media.close();
    await send("POST", "/disconnect");
  }
}

function contactSheet(frames: ReceivedFrame[], name: string): void {
  const w = frames[0].width,
    h = frames[0].height,
    cols = Math.min(4, frames.length),
    rows = Math.ceil(frames.length / cols);
  const sheet = new Uint8Array(w * cols * h * rows * 4).fill(255);
  frames.forEach((f, k) => {
    const rgba = i420ToRgba(f.data, w, h);
    for (let y = 0; y < h; y++)
      sheet.set(rgba.subarray(y * w * 4, (y + 1) * w * 4), ((Math.floor(k / cols) * h + y) * w * cols + (k % cols) * w) * 4);
  });
  mkdirSync(SHEETS, { recursive: true });
  writeFileSync(join(SHEETS, name), encodePng(sheet, w * cols, h * rows));
}

const folder = (id: string) => join(dataDir, "avatars", ownerDir(`key:${sha256Hex(KEY)}`), id);

beforeAll(async () => {
  box = await spawnBox({ BOX_API_KEYS: KEY }, { dataDir });
}, 60_000);
afterAll(async () => {
  await box?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("an uploaded video", () => {
  it("becomes an idle loop on the volume whose anchors follow the face; its take is the tone's own loop", async () => {
    const up = await upload([
      ["file", [panVideo(), "walk.mp4"]],
      ["take__happy", [stillVideo(), "smile.mp4"]],
    ]);
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ avatar: "walk", status: "preparing", tones: ["neutral", "happy"] });
    expect(await settled("walk")).toMatchObject({ state: "ready" });
    const manifest = JSON.parse(readFileSync(join(folder("walk"), "manifest.json"), "utf8"));
    expect(manifest.detail).toMatch(/idle loop of 4\.0 s .*played forwards then backwards/);
    expect(manifest.detail).toMatch(/happy: its own idle loop from take__happy/);
    expect(manifest.detail).not.toMatch(/not used/);
    expect(readdirSync(folder("walk")).sort()).toEqual([
      "face.i420",
      "face.json",
      "loop-happy.i420",
      "loop-happy.json",
      "loop.i420",
      "loop.json",
      "manifest.json",
      "preview.png",
      "source.mp4",
      "source.sha256",
      "takes",
    ]);

    const loop = parseLoopMeta(readFileSync(join(folder("walk"), "loop.json"), "utf8"))!;
    expect(loop).toMatchObject({
      width: 512,
      height: 512,
      fps: 25,
      count: 100,
      play: "pingpong",
      from: "source.mp4",
      take_tones: ["happy"],
    });
    expect(statSync(join(folder("walk"), "loop.i420")).size).toBe(100 * 512 * 512 * 1.5);
    // The window pans right, so the face moves left: the mouth anchor follows the pan, mirrored.
    const mouthX = loop.anchors.map((a) => a[4]);
    expect(Math.max(...mouthX) - Math.min(...mouthX)).toBeGreaterThan(60);
    const pan = mouthX.map((_, i) => PAN.x(i / 25));
    expect(correlation(mouthX, pan)).toBeLessThan(-0.95);
    // The still frame of the loop is the face for previews.
    expect(
      readFileSync(join(folder("walk"), "face.i420")).equals(readFileSync(join(folder("walk"), "loop.i420")).subarray(0, 512 * 512 * 1.5)),
    ).toBe(true);

    const happy = parseLoopMeta(readFileSync(join(folder("walk"), "loop-happy.json"), "utf8"))!;
    expect(happy).toMatchObject({ count: 75, from: "takes/happy__0.mp4" });
    const still = happy.anchors.map((a) => a[4]);
    expect(Math.max(...still) - Math.min(...still)).toBeLessThan(2);
  }, 180_000);

  it("plays live: the picture moves by itself while idle, the mouth talks on it; a still take stays still", async () => {
    const walk = await live("walk", 3, "Hello! This is my own video, and now it talks.");
    const still = await live("walk__happy", 2);
    expect(walk.idle.length).toBeGreaterThan(40);
    const moving = motion(walk.idle);
    const quiet = motion(still.idle);
    expect(moving, `idle motion ${moving.toFixed(2)} vs still take ${quiet.toFixed(2)}`).toBeGreaterThan(Math.max(1, quiet * 4));
    const pick = (fs: ReceivedFrame[], n: number) =>
      Array.from({ length: n }, (_, k) => fs[Math.floor((k * (fs.length - 1)) / Math.max(1, n - 1))]);
    contactSheet([...pick(walk.idle, 4), ...pick(walk.talking.slice(5), 4)], "video-walk.png");
    contactSheet(pick(still.idle, 4), "video-walk-happy.png");
  }, 120_000);

  it("without a face ends failed with a readable detail", async () => {
    expect((await upload([["file", [noFaceVideo(), "bars.mp4"]]])).status).toBe(200);
    const last = await settled("bars");
    expect(last).toMatchObject({ state: "failed", detail: expect.stringMatching(/no face was found in the video/i) });
    expect(readdirSync(folder("bars")).filter((f) => f.startsWith("loop"))).toEqual([]);
  }, 60_000);
});

function correlation(a: number[], b: number[]): number {
  const ma = a.reduce((s, v) => s + v, 0) / a.length;
  const mb = b.reduce((s, v) => s + v, 0) / b.length;
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < a.length; i++) (ab += (a[i] - ma) * (b[i] - mb)), (aa += (a[i] - ma) ** 2), (bb += (b[i] - mb) ** 2);
  return ab / Math.sqrt(aa * bb);
}
