// Integration: the real Bun box with the real photo preparer. A photograph of a real person (the
// samples that ship in @vladmandic/face-api) becomes an avatar that streams over WebRTC; another
// credential sees none of it; bad input is refused; the face survives a restart of the box.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePng } from "../../render/png.ts";
import { WrtcClient } from "../../media/testing/wrtc-client.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";
import { sha256Hex } from "../../auth/principal.ts";
import { ownerDir } from "./ids.ts";

const A = "own_int_key_a";
const B = "own_int_key_b";
const DEMO = new URL("../../../node_modules/@vladmandic/face-api/demo/", import.meta.url);
const PHOTO = readFileSync(new URL("sample2.jpg", DEMO));
const work = mkdtempSync(join(tmpdir(), "own-int-"));
const dataDir = join(work, "volume");

type Part = [string, string | [Uint8Array, string]];
interface Answer {
  status: number;
  json: Record<string, any>;
  bytes: Uint8Array;
  type: string;
}

let box: RunningBox;

async function send(key: string, method: string, path: string, body?: FormData | object): Promise<Answer> {
  const headers: Record<string, string> = { "x-api-key": key };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) (payload = JSON.stringify(body)), (headers["content-type"] = "application/json");
  const res = await fetch(box.url + path, { method, headers, body: payload });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get("content-type") ?? "";
  let json: Record<string, any> = {};
  if (type.includes("json")) json = JSON.parse(new TextDecoder().decode(bytes));
  return { status: res.status, json, bytes, type };
}

function upload(key: string, parts: Part[], path = "/api/avatar"): Promise<Answer> {
  const f = new FormData();
  for (const [name, v] of parts) f.append(name, typeof v === "string" ? v : new File([v[0] as Uint8Array<ArrayBuffer>], v[1]));
  return send(key, "POST", path, f);
}

/** Polls GET /api/avatars until `avatar` has left `preparing`; answers its last journal line. */
async function settled(
  key: string,
  avatar: string,
  timeoutMs = 60_000,
): Promise<{ avatars: Record<string, any>; last: Record<string, any> }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { json } = await send(key, "GET", "/api/avatars");
    const preparing = (json.preparing as string[]).some((v) => v === avatar || v.startsWith(`${avatar}__`));
    const journal = json.builds[avatar] as Record<string, any>[] | undefined;
    if (!preparing && journal?.length) return { avatars: json, last: journal.at(-1)! };
    if (Date.now() > deadline) throw new Error(`${avatar} still preparing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function ffmpeg(args: string[], out: string): Uint8Array {
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", ...args, out], { timeout: 60_000 });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return new Uint8Array(readFileSync(out));
}

const isPng = (b: Uint8Array) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;

beforeAll(async () => {
  box = await spawnBox({ BOX_API_KEYS: `${A},${B}` }, { dataDir });
});
afterAll(async () => {
  await box?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("an uploaded photograph", () => {
  it("goes preparing → ready and shows beside the stock faces, to its uploader only", async () => {
    const up = await upload(A, [
      ["file", [PHOTO, "Sample Two.jpg"]],
      ["tones", "happy,angry"],
    ]);
    expect(up.status).toBe(200);
    expect(up.json).toEqual({
      avatar: "sample-two",
      status: "preparing",
      tones: ["neutral", "happy"],
      note: expect.stringMatching(/angry/),
      active: "stock-ava",
    });
    const { avatars, last } = await settled(A, "sample-two");
    expect(last).toMatchObject({ state: "ready" });
    expect(avatars.groups.find((g: any) => g.id === "sample-two")).toMatchObject({
      stock: false,
      variants: ["sample-two", "sample-two__happy"],
      preview: "sample-two",
    });
    expect(avatars.groups.filter((g: any) => g.stock)).toHaveLength(3);
    const theirs = await send(B, "GET", "/api/avatars");
    expect(JSON.stringify(theirs.json)).not.toContain("sample-two");

    const videos = (await send(A, "GET", "/api/videos")).json;
    expect(videos.videos.find((v: any) => v.id === "sample-two")).toEqual({
      id: "sample-two",
      status: "ready",
      kind: "photo",
      bytes: PHOTO.length,
      identity: "sample-two",
      emotion: "neutral",
      active: false,
      deletable: true,
      registry_note: null,
    });
    const preview = await send(A, "GET", "/api/avatar/preview?avatar=sample-two__happy");
    expect(preview.status).toBe(200);
    expect(preview.type).toBe("image/png");
    expect(isPng(preview.bytes)).toBe(true);
    const folder = join(dataDir, "avatars", ownerDir(`key:${sha256Hex(A)}`), "sample-two");
    expect(readdirSync(folder).sort()).toEqual(["face.i420", "face.json", "manifest.json", "preview.png", "source.jpg", "source.sha256"]);
  });

  it("streams on /connect for its uploader; another credential gets 404 everywhere, a live face cannot be deleted", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/avatar/preview?avatar=sample-two", undefined],
      ["POST", "/api/avatar/delete", { avatar: "sample-two" }],
      ["POST", "/connect", { sdp: "v=0", type: "offer", avatar: "sample-two" }],
    ] as const) {
      const r = await send(B, method, path, body);
      expect([r.status, r.json.code], path).toEqual([404, "unknown_avatar"]);
    }
    const media = new WrtcClient(4);
    try {
      let answer: Record<string, any> = {};
      await media.connect(async (offer) => {
        const r = await send(A, "POST", "/connect", { ...offer, avatar: "sample-two__happy" });
        expect(r.status).toBe(200);
        answer = r.json;
        return r.json as { sdp: string; type: string };
      });
      expect(answer.avatar).toBe("sample-two__happy");
      const frame = await media.waitForFirstFrame(20_000);
      expect(frame.width).toBe(512);
      await media.until(() => media.frames.length >= 25, 15_000, "25 frames of the uploaded face");
      expect((await send(A, "GET", "/api/avatars")).json.active).toBe("sample-two__happy");
      expect((await send(B, "GET", "/api/avatars")).json.active).toBe("stock-ava");
      // The public /health names the stock face in the same tone, never the private upload's id.
      const health = (await (await fetch(box.url + "/health")).json()) as Record<string, unknown>;
      expect(health).toMatchObject({ avatar: "stock-ava", speaking_face: "stock-ava__happy" });
      const del = await send(A, "POST", "/api/avatar/delete", { avatar: "sample-two" });
      expect([del.status, del.json.code]).toEqual([409, "avatar_live"]);
    } finally {
      media.close();
      await send(A, "POST", "/disconnect");
    }
  });
});

describe("preparation that fails, and videos", () => {
  it("a picture with no face ends failed with a readable detail; its preview 404 says why", async () => {
    const px = new Uint8Array(320 * 240 * 4);
    for (let i = 0; i < px.length; i += 4) (px[i] = (i / 4) % 320), (px[i + 1] = 120), (px[i + 2] = 200), (px[i + 3] = 255);
    expect((await upload(A, [["file", [encodePng(px, 320, 240), "landscape.png"]]])).status).toBe(200);
    const { last, avatars } = await settled(A, "landscape");
    expect(last).toMatchObject({ state: "failed", detail: expect.stringMatching(/no face/i) });
    expect(avatars.groups.some((g: any) => g.id === "landscape")).toBe(false);
    const row = (await send(A, "GET", "/api/videos")).json.videos.find((v: any) => v.id === "landscape");
    expect(row).toMatchObject({ status: "failed", deletable: true });
    const prev = await send(A, "GET", "/api/avatar/preview?avatar=landscape");
    expect([prev.status, prev.json.code]).toEqual([404, "avatar_failed"]);
    expect(prev.json.error).toMatch(/no face/i);
  });

  it("a video without takes or ai_generated: the base idle face alone, looping the video's own frames", async () => {
    const mp4 = ffmpeg(
      [
        "-loop",
        "1",
        "-i",
        new URL("sample3.jpg", DEMO).pathname,
        "-t",
        "2",
        "-r",
        "10",
        "-vf",
        "scale=480:-2,format=yuv420p",
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
      ],
      join(work, "clip.mp4"),
    );
    const up = await upload(A, [
      ["file", [mp4, "clip.mp4"]],
      ["tones", "happy"],
      ["framing", "not read"],
      ["gesture_amplitude", "not read"],
    ]);
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ avatar: "clip", tones: ["neutral"], note: expect.stringMatching(/take__<tone>/) });
    const { last, avatars } = await settled(A, "clip");
    expect(last.state).toBe("ready");
    expect(avatars.groups.find((g: any) => g.id === "clip")).toMatchObject({ variants: ["clip"], stock: false });
    expect((await send(A, "GET", "/api/videos")).json.videos.find((v: any) => v.id === "clip")).toMatchObject({
      kind: "video",
      bytes: mp4.length,
    });
    const folder = join(dataDir, "avatars", ownerDir(`key:${sha256Hex(A)}`), "clip");
    expect(readdirSync(folder)).toEqual(expect.arrayContaining(["loop.i420", "loop.json", "face.i420"]));
  });

  it("photo_avatar.create refuses a video without the ai_generated declaration", async () => {
    const mp4 = new Uint8Array(readFileSync(join(work, "clip.mp4")));
    const r = await upload(
      A,
      [
        ["file", [mp4, "v.mp4"]],
        ["avatar_id", "v"],
      ],
      "/v1/photo_avatar.create",
    );
    expect(r).toMatchObject({
      status: 400,
      json: { error: { code: "ai_generated_required", message: expect.stringMatching(/ai_generated=true/) } },
    });
  });
});

describe("bad input", () => {
  it("is refused with 400 or 413 and a readable message, and nothing lands outside the avatars folder", async () => {
    const audioOnly = ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac"], join(work, "sound.mp4"));
    const tenMinutes = ffmpeg(
      ["-f", "lavfi", "-i", "color=c=gray:s=64x64:r=1", "-t", "600", "-c:v", "libx264", "-preset", "ultrafast"],
      join(work, "long.mp4"),
    );
    const bomb = encodePng(new Uint8Array(4 * 4 * 4), 4, 4);
    new DataView(bomb.buffer).setUint32(16, 20000);
    new DataView(bomb.buffer).setUint32(20, 20000);
    const cases: [Part[], number, RegExp][] = [
      [[["file", [new TextEncoder().encode("PK\x03\x04 a zip renamed"), "photo.png"]]], 400, /zip/],
      [[["file", [audioOnly, "sound.mp4"]]], 400, /no video stream/],
      [[["file", [tenMinutes, "long.mp4"]]], 400, /at most 120 s/],
      [[["file", [bomb, "huge.png"]]], 400, /20000x20000/],
      [[["file", [PHOTO.subarray(0, 20_000), "cut.jpg"]]], 400, /truncated/],
      [[["file", [PHOTO, "x.gif"]]], 400, /must end/],
      [
        [
          ["file", [PHOTO, "me.jpg"]],
          ["mood", "sunny"],
        ],
        400,
        /Unknown part "mood"/,
      ],
      [
        [
          ["file", [PHOTO, "me.jpg"]],
          ["take__happy", [PHOTO, "take.jpg"]],
        ],
        400,
        /\.webm \.mp4 \.mov \.mkv/,
      ],
      [[["photo", [PHOTO, "me.jpg"]]], 400, /Unknown part "photo"/],
    ];
    for (const [parts, status, message] of cases) {
      const r = await upload(A, parts);
      expect(r.status, String(message)).toBe(status);
      expect(r.json.error, String(message)).toMatch(message);
    }
    const big = await upload(A, [["file", [new Uint8Array(51 * 1024 * 1024), "big.png"]]]).catch(
      (e: Error) => ({ status: -1, json: { error: e.message } }) as unknown as Answer,
    );
    expect([big.status, big.json.code]).toEqual([413, "body_too_large"]);
    for (const name of ["../x.png", "a/b.jpg", ".png", "ßüñ.jpg"]) {
      const r = await upload(A, [
        ["file", [PHOTO, name]],
        ["tones", "neutral"],
      ]);
      expect(r.status, name).toBe(200);
      expect(r.json.avatar, name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(existsSync(join(dataDir, "x.png")) || existsSync(join(dataDir, "avatars", "x.png")) || existsSync(join(work, "x.png"))).toBe(
      false,
    );
    for (const entry of readdirSync(dataDir))
      expect(["avatars", "audio", "transcripts", "box.db", "box.db-wal", "box.db-shm", "box-secret"]).toContain(entry);
  });
});

describe("delete and restart", () => {
  it("delete removes the avatar and its files", async () => {
    const r = await send(A, "POST", "/api/avatar/delete", { avatar: "clip" });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ deleted: "clip", active: expect.any(String), videos: expect.any(Array) });
    expect(r.json.videos.some((v: any) => v.identity === "clip")).toBe(false);
    expect(existsSync(join(dataDir, "avatars", ownerDir(`key:${sha256Hex(A)}`), "clip"))).toBe(false);
    expect((await send(A, "POST", "/api/avatar/delete", { avatar: "clip" })).status).toBe(404);
    expect((await send(A, "POST", "/api/avatar/delete", { avatar: "stock-ben" })).status).toBe(400);
  });

  it("a restart of the box on the same volume keeps the prepared face and prepares what was cut off", async () => {
    await box.stop();
    box = await spawnBox({ BOX_API_KEYS: `${A},${B}` }, { dataDir });
    const avatars = (await send(A, "GET", "/api/avatars")).json;
    expect(avatars.groups.find((g: any) => g.id === "sample-two")).toMatchObject({ stock: false, tones: ["neutral", "happy"] });
    expect(avatars.preparing.filter((v: string) => v.startsWith("sample-two"))).toEqual([]);
    const preview = await send(A, "GET", "/api/avatar/preview?avatar=sample-two");
    expect([preview.status, isPng(preview.bytes)]).toEqual([200, true]);
    expect((await send(A, "GET", "/api/videos")).json.videos.find((v: any) => v.id === "landscape")).toMatchObject({ status: "failed" });
    // Uploads still waiting when the box stopped are prepared after the restart.
    expect((await settled(A, "x")).last).toMatchObject({ state: "ready" });
  });
});
