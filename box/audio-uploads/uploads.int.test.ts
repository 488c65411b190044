// Integration: the real box with key auth, a key table (session tokens) and a recogniser speaking
// Deepgram's protocol: POST /api/upload of WAV, MP3 and OGG made here with espeak-ng and ffmpeg,
// GET /api/audios, POST /offer of an upload received by a WebRTC client, every refusal, stored
// names that stay inside the volume's audio/ folder, and the stream-only token's scope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { WrtcClient } from "../media/testing/wrtc-client.ts";
import { FakeDeepgram } from "../stt/testing/fake-deepgram.ts";

const A = "uploads_key_a";
const B = "uploads_key_b";
const HEARD = "I am so happy to see you";

let box: RunningBox;
let dg: FakeDeepgram;
let kt: Client;
let work: string;

const file = (name: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(join(work, name)));

async function upload(key: string, parts: Record<string, string | { bytes: Uint8Array<ArrayBuffer>; filename: string }>) {
  const form = new FormData();
  for (const [name, v] of Object.entries(parts)) {
    if (typeof v === "string") form.append(name, v);
    else form.append(name, new Blob([v.bytes]), v.filename);
  }
  const res = await fetch(box.url + "/api/upload", { method: "POST", headers: { "x-api-key": key }, body: form });
  return { status: res.status, json: (await res.json()) as any };
}
async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(box.url + path, {
    method,
    headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as any };
}
const audios = async (key: string) => (await call("GET", "/api/audios", { "x-api-key": key })).json.audios as any[];

/** Every file under `dir`, relative. */
function walk(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? walk(join(dir, n), root) : [relative(root, join(dir, n))],
  );
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "uploads-int-"));
  const ff = (...args: string[]) => execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-y", ...args], { cwd: work });
  execFileSync("espeak-ng", ["-w", join(work, "happy.wav"), HEARD]);
  ff("-i", "happy.wav", "happy.mp3");
  ff("-i", "happy.wav", "-c:a", "libvorbis", "happy.ogg");
  ff("-f", "lavfi", "-i", "sine=f=440:d=125", "-c:a", "libvorbis", "long.ogg");
  const ktUrl = `file:${join(work, "keys.db")}`;
  kt = createClient({ url: ktUrl });
  await migrateKeyTable(kt);
  dg = await FakeDeepgram.start({ apiKey: "dg-key", utterances: [HEARD], msPerWord: 100 });
  box = await spawnBox({
    BOX_API_KEYS: `${A},${B}`,
    BOX_KEY_TABLE_URL: ktUrl,
    BOX_ASR: "deepgram",
    BOX_DEEPGRAM_URL: dg.url,
    BOX_DEEPGRAM_API_KEY: "dg-key",
  });
}, 60_000);
afterAll(async () => {
  await box?.stop();
  await dg?.stop();
  kt?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("POST /api/upload and GET /api/audios", () => {
  it("stores a WAV, an MP3 and an OGG as 48 kHz WAVs, with the recogniser's words (or the uploader's) and a tone", async () => {
    const wav = await upload(A, { file: { bytes: file("happy.wav"), filename: "Happy Greeting.wav" } });
    expect(wav).toMatchObject({
      status: 200,
      json: {
        ok: true,
        audio: "happy-greeting.wav",
        kind: "upload",
        sample_rate: 48000,
        transcript: HEARD,
        transcript_source: "recogniser",
        tone: "happy",
        replaced: false,
      },
    });
    expect(wav.json.duration_s).toBeGreaterThan(1.4);
    expect(wav.json.bytes).toBe(statSync(join(box.dataDir, "audio", "happy-greeting.wav")).size);
    const mp3 = await upload(A, { file: { bytes: file("happy.mp3"), filename: "news.mp3" }, tone: "sad" });
    expect(mp3).toMatchObject({ status: 200, json: { audio: "news.wav", tone: "sad", transcript: HEARD } });
    const ogg = await upload(A, {
      file: { bytes: file("happy.ogg"), filename: "notice.ogg" },
      transcript: "This is important, please be careful.",
    });
    expect(ogg).toMatchObject({
      status: 200,
      json: { audio: "notice.wav", tone: "serious", transcript: "This is important, please be careful.", transcript_source: "uploader" },
    });
    expect(JSON.parse(readFileSync(join(box.dataDir, "audio", "news.json"), "utf8"))).toMatchObject({
      kind: "upload",
      subject: expect.stringMatching(/^key:[0-9a-f]{64}$/),
      tone: "sad",
    });

    const list = await audios(A);
    expect(list.map((r) => r.name).sort()).toEqual(["default-clip.wav", "happy-greeting.wav", "news.wav", "notice.wav"]);
    expect(list.find((r) => r.name === "default-clip.wav")).toMatchObject({
      kind: "default",
      transcript: expect.stringContaining("Hello"),
      transcript_source: "speech",
    });
    expect(list.find((r) => r.name === "news.wav")).toEqual({
      name: "news.wav",
      kind: "upload",
      duration_s: mp3.json.duration_s,
      sample_rate: 48000,
      bytes: mp3.json.bytes,
      created_at: mp3.json.created_at,
      tone: "sad",
      transcript: HEARD,
      transcript_source: "recogniser",
    });
    // Another credential sees the default clip only, and A's upload is missing to it.
    expect((await audios(B)).map((r) => r.name)).toEqual(["default-clip.wav"]);
    expect(await call("POST", "/offer", { "x-api-key": B }, { sdp: "not sdp", type: "offer", audio: "news.wav" })).toMatchObject({
      status: 404,
      json: { code: "unknown_audio" },
    });
    // The same filename from A overwrites A's own.
    expect(await upload(A, { file: { bytes: file("happy.ogg"), filename: "news.ogg" }, tone: "thoughtful" })).toMatchObject({
      status: 200,
      json: { audio: "news.wav", replaced: true, tone: "thoughtful" },
    });
  });

  it('/offer lip-syncs an upload to a WebRTC client: tone from its words, or an explicit tone with transcript ""', async () => {
    const offer = async (extra: Record<string, unknown>) => {
      const client = new WrtcClient(10);
      let body: any;
      await client.connect(async (o) => {
        const r = await call("POST", "/offer", { "x-api-key": A }, { ...o, ...extra });
        if (r.status !== 200) throw new Error(`offer ${r.status} ${JSON.stringify(r.json)}`);
        body = r.json;
        return { sdp: body.sdp, type: body.type };
      });
      return { client, body };
    };
    const first = await offer({ audio: "happy-greeting.wav", emotion_responsive: true });
    try {
      expect(first.body).toMatchObject({ type: "answer", emotion: "happy", transcript: HEARD, avatar: expect.stringMatching(/__happy$/) });
      await first.client.until(() => first.client.audioRmsOver(200) > 500, 15_000, "the uploaded speech at the client");
    } finally {
      first.client.close();
    }
    const second = await offer({ audio: "notice.wav", tone: "surprised" });
    try {
      expect(second.body).toMatchObject({ emotion: "surprised", transcript: "" });
      await second.client.until(() => second.client.audioRmsOver(200) > 500, 15_000, "the uploaded speech at the client");
    } finally {
      second.client.close();
      await call("POST", "/disconnect", { "x-api-key": A });
    }
  }, 90_000);

  it("refuses another part name, a text file named .wav, an over-size body and an over-long clip (flat errors)", async () => {
    expect(await upload(A, { audio: { bytes: file("happy.wav"), filename: "a.wav" } })).toMatchObject({
      status: 400,
      json: { code: "unknown_part", error: expect.stringContaining('"file"') },
    });
    const text = new TextEncoder().encode("just some words, not audio at all\n");
    expect(await upload(A, { file: { bytes: text, filename: "fake.wav" } })).toMatchObject({
      status: 400,
      json: { code: "unsupported_audio", error: expect.any(String) },
    });
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(file("happy.wav"));
    expect(await upload(A, { file: { bytes: big, filename: "big.wav" } })).toMatchObject({ status: 413, json: { code: "body_too_large" } });
    expect(await upload(A, { file: { bytes: file("long.ogg"), filename: "long.ogg" } })).toMatchObject({
      status: 400,
      json: { code: "audio_too_long", error: expect.stringContaining("120") },
    });
    expect(await upload(A, { file: { bytes: file("happy.wav"), filename: "t.wav" }, tone: "angry" })).toMatchObject({
      status: 400,
      json: { code: "unknown_tone" },
    });
    const names = (await audios(A)).map((r) => r.name);
    for (const n of ["fake.wav", "big.wav", "long.wav", "t.wav", "a.wav"]) expect(names).not.toContain(n);
  });

  it("stores path-like and empty filenames under safe names inside audio/ only", async () => {
    const before = new Set(walk(box.dataDir));
    const got: string[] = [];
    for (const filename of ["../x.wav", "a/b.wav", ".wav"]) {
      const r = await upload(A, { file: { bytes: file("happy.wav"), filename } });
      expect(r.status).toBe(200);
      got.push(r.json.audio);
    }
    expect(got.slice(0, 2)).toEqual(["x.wav", "a-b.wav"]);
    expect(got[2]).toMatch(/^audio-[0-9a-f]{12}\.wav$/);
    const added = walk(box.dataDir).filter((f) => !before.has(f) && !/^box\.db/.test(f));
    expect(added.sort()).toEqual(got.flatMap((n) => [`audio/${n}`, `audio/${n.replace(/\.wav$/, ".json")}`]).sort());
    expect(readdirSync(join(box.dataDir, ".."))).not.toContain("x.wav");
  });

  it("a stream-only session token cannot upload (401 insufficient_scope) but lists its credential's audio", async () => {
    const minted = await call("POST", "/v1/streaming.create_token", { "x-api-key": A }, {});
    expect(minted.status).toBe(200);
    const token = minted.json.data.token as string;
    const form = new FormData();
    form.append("file", new Blob([file("happy.wav")]), "token.wav");
    const res = await fetch(box.url + "/api/upload", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "insufficient_scope" });
    const list = await call("GET", "/api/audios", { authorization: `Bearer ${token}` });
    expect(list.status).toBe(200);
    expect(list.json.audios.map((r: any) => r.name)).toEqual(
      expect.arrayContaining(["default-clip.wav", "happy-greeting.wav", "news.wav"]),
    );
    expect(list.json.audios.map((r: any) => r.name)).not.toContain("token.wav");
  });
});
