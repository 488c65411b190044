// Video faces on the route table with a stand-in video preparer (fast; the real one runs in
// own-video.int.test.ts): the loops on the volume, per-tone takes and their fallback, the frame
// sources the registry hands the live session, loading at restart, and preparing again when a
// loop is missing (e.g. a video prepared before it kept its motion).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBoxApp } from "../../app.ts";
import { Authenticator, sha256Hex } from "../../auth/principal.ts";
import type { FaceRenderer } from "../../render/face-renderer.ts";
import { encodePng } from "../../render/png.ts";
import { pingPong, sourceForTone } from "../frame-source.ts";
import { AvatarRegistry } from "../registry.ts";
import { avatarRoutes } from "../routes.ts";
import { loadStockFaces } from "../stock/index.ts";
import { withCallers } from "./caller.ts";
import { ownerDir } from "./ids.ts";
import { OwnAvatars, type OwnAvatarsOptions } from "./own-avatars.ts";
import type { PrepareVideo } from "./preparers.ts";

const SIZE = 64;
const KEY = "key_video";
const SUBJECT = `key:${sha256Hex(KEY)}`;
const work = mkdtempSync(join(tmpdir(), "own-video-"));

class FaceError extends Error {}

function mp4(name: string, seconds: number): Uint8Array {
  const out = join(work, name);
  const r = spawnSync("/usr/bin/ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=64x48:rate=10`,
    "-t",
    String(seconds),
    "-pix_fmt",
    "yuv420p",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    out,
  ]);
  if (r.status !== 0) throw new Error(String(r.stderr));
  return new Uint8Array(readFileSync(out));
}

/** Stand-in: `n` frames whose every byte is the frame's number, the stock anchors shifted by it; a `take__sad` has no face. */
function fakeVideo(calls: string[], n = 6): PrepareVideo {
  return async (src) => {
    calls.push(src.path);
    if (src.path.includes("takes/sad")) throw new FaceError("No face was found in the video.");
    const stock = (await loadStockFaces(SIZE))[0].face;
    const base = src.path.includes("takes") ? 100 : 0;
    const frames = Array.from({ length: n }, (_, k) => new Uint8Array(stock.i420.length).fill(base + k));
    const anchors = frames.map((_, k) => ({ ...stock.anchors, mouth: { ...stock.anchors.mouth, x: stock.anchors.mouth.x + k } }));
    return {
      face: { width: SIZE, height: SIZE, i420: frames[0], anchors: anchors[0] },
      frames,
      anchors,
      landmarks: [],
      facesFound: 1,
      detail: `1 face found; idle loop of ${n / 25} s`,
      loop: { startS: 0, seconds: n / 25, fps: 25 },
    };
  };
}

async function rig(dataDir: string, extra: Partial<OwnAvatarsOptions>) {
  const own = await OwnAvatars.open({
    dataDir,
    size: SIZE,
    preparePhoto: async () => {
      throw new Error("no photos here");
    },
    isPhotoError: (e) => e instanceof FaceError,
    renderStill: async (face) => encodePng(new Uint8Array(face.width * face.height * 4).fill(128), face.width, face.height),
    photoAvatar: true,
    framings: ["head", "face", "bust"],
    records: null,
    ...extra,
  });
  const registry = await AvatarRegistry.load({ width: SIZE } as FaceRenderer, own);
  const app = createBoxApp({
    auth: new Authenticator([KEY], null),
    allowedOrigins: [],
    routes: withCallers(avatarRoutes(registry, { onScreen: () => null })),
  });
  const upload = async (parts: [string, [Uint8Array, string]][]) => {
    const f = new FormData();
    for (const [name, [bytes, file]] of parts) f.append(name, new File([bytes as Uint8Array<ArrayBuffer>], file));
    const res = await app.handle(new Request("http://localhost/api/avatar", { method: "POST", headers: { "x-api-key": KEY }, body: f }));
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  return { own, registry, upload };
}

const folder = (dataDir: string, id: string) => join(dataDir, "avatars", ownerDir(SUBJECT), id);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a video face on the volume and in the registry", () => {
  const dataDir = join(work, "volume");
  const calls: string[] = [];
  let r: Awaited<ReturnType<typeof rig>>;
  beforeAll(async () => {
    r = await rig(dataDir, { prepareVideo: fakeVideo(calls) });
  });

  it("keeps the base loop and each take's loop; the registry hands the live session both", async () => {
    const up = await r.upload([
      ["file", [mp4("a.mp4", 1), "walk.mp4"]],
      ["take__happy", [mp4("b.mp4", 1), "smile.mp4"]],
    ]);
    expect(up.json).toMatchObject({ avatar: "walk", tones: ["neutral", "happy"] });
    await r.own.queue.idle();
    const entry = r.own.get(SUBJECT, "walk")!;
    expect(entry.manifest).toMatchObject({
      state: "ready",
      detail: expect.stringMatching(/idle loop.*happy: its own idle loop from take__happy/),
    });
    const loop = JSON.parse(readFileSync(join(folder(dataDir, "walk"), "loop.json"), "utf8"));
    expect(loop).toMatchObject({ count: 6, play: "pingpong", from: "source.mp4", take_tones: ["happy"], frame_bytes: SIZE * SIZE * 1.5 });
    expect(readFileSync(join(folder(dataDir, "walk"), "loop-happy.i420")).length).toBe(6 * SIZE * SIZE * 1.5);

    const neutral = r.registry.resolveFor(SUBJECT, "walk")!;
    const happy = r.registry.resolveFor(SUBJECT, "walk__happy")!;
    expect(neutral.frames).toBeDefined();
    expect(happy.frames).toBe(neutral.frames);
    expect(neutral.face.i420[0]).toBe(0);
    expect(happy.face.i420[0]).toBe(100); // the take's first frame is the happy still
    const base = sourceForTone(neutral.frames!, "neutral");
    const take = sourceForTone(neutral.frames!, "happy");
    expect(sourceForTone(neutral.frames!, "sad")).toBe(base);

    // Frames are read only while held, one PreparedFace per loop frame, with that frame's anchors.
    expect(base.frame(0)).toBeNull();
    await base.acquire();
    await take.acquire();
    const played = Array.from({ length: 12 }, (_, i) => base.frame(pingPong(i, base.count))!);
    expect(played.map((f) => f.i420[0])).toEqual([0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0]);
    expect(played[3]).toBe(played[8]); // the same object: the renderer's per-face crop cache holds
    expect(played[3].palette).toBeDefined();
    expect(played[3].palette).toBe(played[0].palette); // one mouth interior colour for the whole loop
    expect(played[2].anchors.mouth.x - played[0].anchors.mouth.x).toBeCloseTo(2, 1);
    expect(take.frame(1)!.i420[0]).toBe(101);
    base.release();
    take.release();
    expect(base.frame(0)).toBeNull();
  });

  it("a tone whose take has no face plays the base video, and says so", async () => {
    await r.upload([
      ["file", [mp4("c.mp4", 1), "other.mp4"]],
      ["take__sad", [mp4("noface.mp4", 1), "noface.mp4"]],
    ]);
    await r.own.queue.idle();
    const entry = r.own.get(SUBJECT, "other")!;
    expect(entry.manifest).toMatchObject({
      state: "ready",
      tones: ["neutral", "sad"],
      detail: expect.stringMatching(/sad: no take could be used \(take__sad: No face was found/),
    });
    const sad = r.registry.resolveFor(SUBJECT, "other__sad")!;
    expect(sad.frames!.takes).toEqual({});
    expect(sourceForTone(sad.frames!, "sad")).toBe(sad.frames!.base);
  });

  it("loads the loops at restart without preparing again; a missing loop is prepared again", async () => {
    const before = calls.length;
    const again = await rig(dataDir, { prepareVideo: fakeVideo(calls) });
    expect(calls.length).toBe(before);
    const walk = again.registry.resolveFor(SUBJECT, "walk__happy")!;
    expect(walk.frames!.base.count).toBe(6);
    expect(walk.face.i420[0]).toBe(100);

    rmSync(join(folder(dataDir, "walk"), "loop-happy.json"));
    const third = await rig(dataDir, { prepareVideo: fakeVideo(calls) });
    expect(third.own.get(SUBJECT, "walk")!.manifest.state).toBe("preparing");
    await third.own.queue.idle();
    expect(third.own.get(SUBJECT, "walk")!.manifest.state).toBe("ready");
    expect(calls.length).toBe(before + 2); // the base video and its take
  });

  it("a DASH manifest posing as QuickTime, as the file or a take, is 400 unsupported_file and reads no one's video", async () => {
    const victim = join(folder(dataDir, "walk"), "source.mp4");
    const mpd = new TextEncoder().encode(`<!--free-->
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
 <Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="100000" width="64" height="48">
  <BaseURL>file://${victim}</BaseURL>
 </Representation></AdaptationSet></Period>
</MPD>
`);
    const before = calls.length;
    for (const parts of [
      [["file", [mpd, "borrowed.mp4"]]],
      [
        ["file", [mp4("e.mp4", 1), "borrowed.mp4"]],
        ["take__happy", [mpd, "smile.mp4"]],
      ],
    ] as [string, [Uint8Array, string]][][]) {
      const up = await r.upload(parts);
      expect(up.status).toBe(400);
      expect(up.json).toMatchObject({ code: "unsupported_file", error: expect.stringMatching(/could not be read/) });
      expect(JSON.stringify(up.json)).not.toContain(dataDir);
    }
    expect(r.own.get(SUBJECT, "borrowed")).toBeNull();
    expect(calls.length).toBe(before);
  });

  it("without a video preparer a video upload fails with a sentence", async () => {
    const bare = await rig(join(work, "bare"), {});
    await bare.upload([["file", [mp4("d.mp4", 1), "clip.mp4"]]]);
    await bare.own.queue.idle();
    expect(bare.own.get(SUBJECT, "clip")!.manifest).toMatchObject({
      state: "failed",
      detail: expect.stringMatching(/video preparation is not available/),
    });
  });
});
