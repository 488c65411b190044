// Integration: the WAVs POST /api/chat writes without a live session are kept under a retention
// policy per credential subject (oldest first, newest kept), swept at each write and at start;
// the default clip and uploaded audio are never swept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { FakeOpenAi } from "../llm/testing/fake-openai.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { encodeWav } from "../tts/wav.ts";

const A = "audio_key_a";
const B = "audio_key_b";
const CAP = 1024 * 1024; // BOX_REPLY_AUDIO_MAX_MB_PER_SUBJECT=1
// About eight seconds of speech: a few hundred KB of WAV at the engine's rate.
const LONG =
  "This reply is deliberately long, so that each one takes a good few seconds of speech and a handful of them fill the small allowance this test gives each credential.";
const DAY = 86_400_000;

let fake: FakeOpenAi;
let box: RunningBox;
let dataDir: string;
let audioDir: string;

const chat = async (key: string) => {
  const r = await fetch(box.url + "/api/chat", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ message: "talk" }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as any).audio as string;
};
const offer = async (key: string, audio: string) =>
  (
    await fetch(box.url + "/offer", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ sdp: "not sdp", type: "offer", audio }),
    })
  ).json() as Promise<any>;
const sidecar = (wav: string) => JSON.parse(readFileSync(join(audioDir, wav.replace(/\.wav$/, ".json")), "utf8"));
const bytes = (wav: string) => statSync(join(audioDir, wav)).size + statSync(join(audioDir, wav.replace(/\.wav$/, ".json"))).size;
const plant = (name: string, meta: object) => {
  writeFileSync(join(audioDir, name), encodeWav(new Int16Array(16000), 16000));
  writeFileSync(join(audioDir, name.replace(/\.wav$/, ".json")), JSON.stringify(meta));
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "box-reply-audio-"));
  audioDir = join(dataDir, "audio");
  mkdirSync(audioDir, { recursive: true });
  // Left by an earlier run: a reply two days old (swept at start) and an old upload (kept).
  plant(`reply-${Date.now() - 2 * DAY}-0a0b0c0d.wav`, {
    text: "old",
    tone: "neutral",
    kind: "reply",
    subject: "key:someone",
    created_ms: Date.now() - 2 * DAY,
  });
  plant("my-upload.wav", { text: "", tone: null, kind: "upload", created_ms: Date.now() - 30 * DAY });
  fake = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: LONG }] });
  box = await spawnBox({ BOX_API_KEYS: `${A},${B}`, BOX_OPENAI_BASE_URL: fake.url, BOX_REPLY_AUDIO_MAX_MB_PER_SUBJECT: "1" }, { dataDir });
});
afterAll(async () => {
  await box?.stop();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("reply audio retention", () => {
  it("sweeps at start: an expired reply goes, uploads and the default clip stay", () => {
    const names = readdirSync(audioDir);
    expect(names.filter((n) => n.startsWith("reply-"))).toEqual([]);
    expect(names).toContain("my-upload.wav");
    expect(names).toContain("default-clip.wav");
  });

  it("records the subject of each reply and keeps each subject under its cap, oldest first", async () => {
    const b = await chat(B);
    const a: string[] = [];
    const subjectA = `key:${createHash("sha256").update(A).digest("hex")}`;
    while (a.length < 8) {
      a.push(await chat(A));
      const left = readdirSync(audioDir)
        .filter((n) => a.includes(n))
        .sort();
      // What is left of A is its newest replies, within the cap (or the newest one alone).
      expect(left).toEqual(a.slice(a.length - left.length).sort());
      expect(left.length === 1 || left.reduce((n, f) => n + bytes(f), 0) <= CAP).toBe(true);
    }
    expect(a.reduce((n, f) => n + (existsSync(join(audioDir, f)) ? bytes(f) : 0), 0)).toBeLessThanOrEqual(CAP);
    expect(existsSync(join(audioDir, a[0]))).toBe(false); // eight long replies are well over 1 MB
    expect(sidecar(a.at(-1)!)).toMatchObject({ kind: "reply", subject: subjectA, text: LONG });
    expect(sidecar(b)).toMatchObject({ kind: "reply", subject: `key:${createHash("sha256").update(B).digest("hex")}` });
    // Another subject's reply, the default clip and the upload are untouched.
    expect(existsSync(join(audioDir, b))).toBe(true);
    expect(readdirSync(audioDir)).toEqual(expect.arrayContaining(["default-clip.wav", "my-upload.wav"]));
    // /offer: a swept reply is unknown; the newest is found (only the SDP is refused).
    expect(await offer(A, a[0])).toMatchObject({ code: "unknown_audio" });
    expect(await offer(A, a.at(-1)!)).toMatchObject({ code: "invalid_sdp" });
  }, 120_000);
});
