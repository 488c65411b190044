// Integration: cloning and warming on a box booted on the self-hosted engine (spec Box: voices,
// POST /api/voice/upload and POST /api/voice/prepare; Authentication: both are `full` routes).
// Chatterbox is the protocol fake; the reference clips are made here with real ffmpeg, and the box
// checks them with its own ffprobe/ffmpeg before anything reaches the server.
import { createClient, type Client } from "@libsql/client";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { FakeOpenAi } from "../llm/testing/fake-openai.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { FakeChatterbox } from "./chatterbox/testing/fake-chatterbox.ts";
import { decodeWav } from "./wav.ts";

const KEY = "chatterbox_clone_full_key";
const FFMPEG = "/usr/bin/ffmpeg";
const work = mkdtempSync(join(tmpdir(), "chatterbox-clone-"));
let kt: Client;
let cb: FakeChatterbox;
let llm: FakeOpenAi;
let box: RunningBox;
let token: string;

const clip = (name: string) => new Uint8Array(readFileSync(join(work, name)));
const make = (name: string, ...args: string[]) =>
  execFileSync(FFMPEG, ["-v", "error", "-y", ...args, join(work, name)], { stdio: "ignore" });
const sine = (seconds: number, rate = 44_100) => ["-f", "lavfi", "-i", `sine=frequency=220:sample_rate=${rate}:duration=${seconds}`];

async function upload(parts: { file?: [Uint8Array, string]; name?: string }, key = KEY): Promise<{ status: number; json: any }> {
  const form = new FormData();
  if (parts.file) form.append("file", new File([parts.file[0] as Uint8Array<ArrayBuffer>], parts.file[1]));
  if (parts.name !== undefined) form.append("name", parts.name);
  const r = await fetch(box.url + "/api/voice/upload", { method: "POST", headers: { "x-api-key": key }, body: form });
  return { status: r.status, json: await r.json() };
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  key = KEY,
): Promise<{ status: number; json: any; type: string; bytes: Uint8Array }> {
  const r = await fetch(box.url + path, {
    method,
    headers: { "x-api-key": key, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const type = r.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await r.arrayBuffer());
  return { status: r.status, type, bytes, json: type.includes("json") ? JSON.parse(new TextDecoder().decode(bytes)) : null };
}

const uploads = () => cb.requests.filter((r) => r.path === "/upload_reference").length;
const ttsCalls = () => cb.requests.filter((r) => r.path === "/tts");

/** A refusal in the flat envelope, with one readable sentence. */
function refusal(r: { status: number; json: any }, status: number, code?: string): string {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(r.json).toMatchObject({ error: expect.any(String) });
  if (code) expect(r.json.code).toBe(code);
  expect(r.json.error.length).toBeGreaterThan(10);
  expect(r.json.error).not.toMatch(/[\r\n]/);
  return r.json.error;
}

beforeAll(async () => {
  make("tone-10s.wav", ...sine(10));
  make("tone-10s-stereo.mp3", ...sine(10), "-ac", "2", "-c:a", "libmp3lame");
  make("tone-2s.wav", ...sine(2));
  make("tone-70s.wav", ...sine(70, 8000));
  make("silence-10s.wav", "-f", "lavfi", "-i", "anullsrc=r=24000:cl=mono", "-t", "10");
  // Two hours in a few MB: the length is in the header, so the box refuses it without decoding.
  make("two-hours.ogg", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "7200", "-c:a", "libopus", "-b:a", "6k");
  writeFileSync(join(work, "notes.txt"), "These are not the clips you are looking for.\n".repeat(50));

  const url = `file:${join(work, "keys.db")}`;
  kt = createClient({ url });
  await migrateKeyTable(kt);
  cb = await FakeChatterbox.start();
  llm = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "Hello there, this is my own voice." }] });
  box = await spawnBox({
    BOX_TTS: "chatterbox",
    BOX_CHATTERBOX_URL: cb.url,
    BOX_API_KEYS: KEY,
    BOX_KEY_TABLE_URL: url,
    BOX_OPENAI_BASE_URL: llm.url,
    BOX_ASR: "none",
  });
  const minted = await call("POST", "/v1/streaming.create_token", {});
  expect(minted.status).toBe(200);
  token = minted.json.data.token;
}, 120_000);
afterAll(async () => {
  await box?.stop();
  await cb?.close();
  await llm?.close();
  kt?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("POST /api/voice/upload on a Chatterbox box", () => {
  let voiceId = "";

  it("clones a 10 s tone: 200 {ok, voice_id, voices, current}; the server got mono 24 kHz WAV", async () => {
    const before = uploads();
    const r = await upload({ file: [clip("tone-10s.wav"), "tone-10s.wav"], name: "My Own Voice" });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(["current", "ok", "voice_id", "voices"]);
    expect(r.json.ok).toBe(true);
    voiceId = r.json.voice_id;
    expect(voiceId).toMatch(/^clone:My_Own_Voice--[0-9a-f]{16}-[0-9a-f]{8}\.wav$/);
    expect(r.json.voices.some((v: any) => v.id === voiceId && v.provider === "chatterbox")).toBe(true);
    const row = r.json.voices.find((v: any) => v.id === voiceId);
    expect(row).toMatchObject({
      name: "My Own Voice",
      preview: `/api/voice/preview?provider=chatterbox&voice=${encodeURIComponent(voiceId)}`,
    });
    expect(r.json.current === null || typeof r.json.current === "string").toBe(true);
    expect(uploads()).toBe(before + 1);

    const stored = cb.referenceFile(voiceId.slice("clone:".length));
    expect(stored).toBeInstanceOf(Uint8Array);
    const view = new DataView(stored!.buffer, stored!.byteOffset, stored!.byteLength);
    expect(view.getUint16(22, true)).toBe(1); // mono
    const { pcm, sampleRate } = decodeWav(stored!);
    expect(sampleRate).toBe(24_000);
    expect(pcm.length / sampleRate).toBeGreaterThan(9.5);
    expect(pcm.length / sampleRate).toBeLessThan(10.5);
  });

  it("a stereo MP3 is transcoded to mono WAV too", async () => {
    const r = await upload({ file: [clip("tone-10s-stereo.mp3"), "stereo.mp3"], name: "Stereo" });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const stored = cb.referenceFile(r.json.voice_id.slice("clone:".length))!;
    expect(new DataView(stored.buffer, stored.byteOffset).getUint16(22, true)).toBe(1);
    expect(decodeWav(stored).sampleRate).toBe(24_000);
  });

  it("the new voice is in the catalogue and can speak: preview, and /api/chat with voice_provider", async () => {
    const cat = await call("GET", "/api/voices?refresh=true");
    expect(cat.status).toBe(200);
    const g = cat.json.groups.find((x: any) => x.provider === "chatterbox");
    expect(g.state).toBe("ready");
    expect(g.voices.map((v: any) => v.id)).toContain(voiceId);
    expect(cat.json.voices.map((v: any) => v.id)).toContain(voiceId);

    const before = ttsCalls().length;
    const p = await call("GET", `/api/voice/preview?provider=chatterbox&voice=${encodeURIComponent(voiceId)}`);
    expect(p.status, JSON.stringify(p.json)).toBe(200);
    expect(p.type).toBe("audio/wav");
    const { pcm } = decodeWav(p.bytes);
    let sum = 0;
    for (const s of pcm) sum += s * s;
    expect(Math.sqrt(sum / pcm.length)).toBeGreaterThan(300);
    const said = ttsCalls().slice(before);
    expect(said).toHaveLength(1);
    expect(said[0].json).toMatchObject({ voice_mode: "clone", reference_audio_filename: voiceId.slice("clone:".length) });

    const chat = await call("POST", "/api/chat", { message: "Say hello", voice: voiceId, voice_provider: "chatterbox" });
    expect(chat.status, JSON.stringify(chat.json)).toBe(200);
    expect(chat.json.audio).toMatch(/\.wav$/);
    expect(
      ttsCalls()
        .slice(before + 1)
        .some((r) => r.json?.reference_audio_filename === voiceId.slice("clone:".length)),
    ).toBe(true);
  });

  it("refuses a clip that is too short, silent, not audio, two hours or 70 s long: 400, readable, never sent on", async () => {
    const before = uploads();
    const short = refusal(await upload({ file: [clip("tone-2s.wav"), "short.wav"], name: "Short" }), 400, "invalid_reference_clip");
    expect(short).toMatch(/too short/);
    expect(short).toMatch(/2(\.\d)? s/);
    expect(refusal(await upload({ file: [clip("silence-10s.wav"), "quiet.wav"], name: "Quiet" }), 400, "invalid_reference_clip")).toMatch(
      /silent/,
    );
    expect(refusal(await upload({ file: [clip("notes.txt"), "notes.txt"], name: "Notes" }), 400, "invalid_reference_clip")).toMatch(
      /not audio/,
    );
    expect(refusal(await upload({ file: [new Uint8Array(0), "empty.wav"], name: "Empty" }), 400, "invalid_reference_clip")).toMatch(
      /not audio|empty/,
    );
    const long = refusal(await upload({ file: [clip("two-hours.ogg"), "two-hours.ogg"], name: "Long" }), 400, "invalid_reference_clip");
    expect(long).toMatch(/too long/);
    expect(long).toMatch(/120 min|7200/);
    expect(refusal(await upload({ file: [clip("tone-70s.wav"), "seventy.wav"], name: "Seventy" }), 400, "invalid_reference_clip")).toMatch(
      /too long/,
    );
    expect(uploads()).toBe(before);
  }, 90_000);

  it("refuses a form without the clip, a blank name with no filename, and a body that is not multipart", async () => {
    const before = uploads();
    refusal(await upload({ name: "No clip" }), 400, "missing_file");
    refusal(await upload({ file: [clip("tone-10s.wav"), ".wav"], name: "   " }), 400, "blank_name");
    refusal(await upload({ file: [clip("tone-10s.wav"), "x.wav"], name: "x".repeat(81) }), 400, "invalid_name");
    refusal(await call("POST", "/api/voice/upload", { file: "tone.wav" }), 400, "invalid_body");
    expect(uploads()).toBe(before);
  });

  it("a Chatterbox server that fails the upload is 502", async () => {
    cb.set({ fail: { status: 500, detail: "disk full" } });
    try {
      const msg = refusal(await upload({ file: [clip("tone-10s.wav"), "tone.wav"], name: "Again" }), 502);
      expect(msg).toMatch(/Chatterbox/);
    } finally {
      cb.set({ fail: null });
    }
  });
});

describe("POST /api/voice/prepare on a Chatterbox box", () => {
  it("blank is 400", async () => {
    refusal(await call("POST", "/api/voice/prepare", { voice: "   " }), 400, "blank_voice");
    refusal(await call("POST", "/api/voice/prepare", {}), 400, "blank_voice");
  });

  it("a known voice is 200 with the engine's answer passed through", async () => {
    const before = ttsCalls().length;
    const r = await call("POST", "/api/voice/prepare", { voice: "Emily.wav" });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toEqual({ voice_id: "Emily.wav", ready: true, ms: expect.any(Number) });
    const warm = ttsCalls().slice(before);
    expect(warm).toHaveLength(1);
    expect(warm[0].json).toMatchObject({ voice_mode: "predefined", predefined_voice_id: "Emily.wav" });
  });

  it("a voice the server does not have is 404; a voice id that is a path never reaches it", async () => {
    refusal(await call("POST", "/api/voice/prepare", { voice: "Nobody.wav" }), 404, "unknown_voice");
    const before = cb.requests.length;
    expect([400, 404]).toContain((await call("POST", "/api/voice/prepare", { voice: "../../etc/passwd" })).status);
    expect(cb.requests.length).toBe(before);
  });

  it("the engine failing is 502", async () => {
    cb.set({ fail: { status: 500, detail: "CUDA error: out of memory" } });
    try {
      expect(refusal(await call("POST", "/api/voice/prepare", { voice: "Emily.wav" }), 502)).toMatch(/Chatterbox/);
    } finally {
      cb.set({ fail: null });
    }
  });
});

describe("the clone routes need a full key", () => {
  it("a session token is 401 insufficient_scope on upload and prepare, and nothing reaches the server", async () => {
    const before = cb.requests.length;
    const up = await upload({ file: [clip("tone-10s.wav"), "tone.wav"], name: "Token" }, token);
    expect(up.status).toBe(401);
    expect(up.json).toEqual({ code: "insufficient_scope", message: expect.any(String) });
    const prep = await call("POST", "/api/voice/prepare", { voice: "Emily.wav" }, token);
    expect(prep.status).toBe(401);
    expect(prep.json).toEqual({ code: "insufficient_scope", message: expect.any(String) });
    expect(cb.requests.length).toBe(before);
    // The catalogue is an `any` route: the token reads it.
    expect((await call("GET", "/api/voices", undefined, token)).status).toBe(200);
    // No credential at all.
    const none = await fetch(box.url + "/api/voice/prepare", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(none.status).toBe(401);
  });
});
