// Reply audio retention on the volume: per-subject size cap (oldest first, newest kept), age,
// start-up sweep; the default clip and uploaded audio are never swept.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AudioStore, DEFAULT_CLIP } from "./audio-store.ts";
import { encodeWav } from "../tts/wav.ts";

// One clause of 1000 samples: a 2044-byte WAV plus a sidecar of about 150 bytes.
const speaker = { synthesize: async () => ({ pcm: new Int16Array(1000), sampleRate: 16000 }) as any };
const ONE = 2044 + 200;

let dir: string;
let clock = 1_700_000_000_000;
const now = () => clock;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "audio-store-"));
  clock = 1_700_000_000_000;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const wavs = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".wav"))
    .sort();
const sidecar = (name: string) => JSON.parse(readFileSync(join(dir, name.replace(/\.wav$/, ".json")), "utf8"));
async function reply(store: AudioStore, subject: string): Promise<string> {
  clock += 1000;
  return store.synthesise(speaker, "Hello.", "neutral", { subject: subject });
}

describe("reply audio retention", () => {
  it("records kind, subject and time in the sidecar", async () => {
    const store = new AudioStore(dir, { maxAgeSeconds: null, maxBytesPerSubject: null }, now);
    const name = await reply(store, "key:aaa");
    expect(sidecar(name)).toEqual({ text: "Hello.", tone: "neutral", kind: "reply", subject: "key:aaa", created_ms: clock });
    expect(store.get(name)).toMatchObject({ name, text: "Hello.", tone: "neutral" });
  });

  it("keeps a subject under its cap by removing its oldest replies; another subject's are untouched", async () => {
    const store = new AudioStore(dir, { maxAgeSeconds: null, maxBytesPerSubject: 2 * ONE }, now);
    const a: string[] = [];
    const b = await reply(store, "key:bbb");
    for (let i = 0; i < 5; i++) {
      a.push(await reply(store, "key:aaa"));
      // What is left of the subject is always its newest replies (at most two fit).
      expect(wavs().filter((n) => n !== b)).toEqual(a.slice(-2).sort());
    }
    expect(wavs()).toContain(b);
    for (const gone of a.slice(0, 3)) {
      expect(existsSync(join(dir, gone.replace(/\.wav$/, ".json")))).toBe(false);
      expect(store.get(gone)).toBeNull();
    }
  });

  it("keeps the newest reply even when it alone is over the cap", async () => {
    const store = new AudioStore(dir, { maxAgeSeconds: null, maxBytesPerSubject: 100 }, now);
    await reply(store, "key:aaa");
    const newest = await reply(store, "key:aaa");
    expect(wavs()).toEqual([newest]);
  });

  it("drops replies past their age, whoever made them, and refuses to serve one before the sweep", async () => {
    const store = new AudioStore(dir, { maxAgeSeconds: 60, maxBytesPerSubject: null }, now);
    const old = await reply(store, "key:aaa");
    const older = await reply(store, "key:bbb");
    clock += 30_000;
    const young = await reply(store, "key:aaa");
    clock += 40_000; // the first two are now over 70 s old, the third 40 s
    expect(store.get(old)).toBeNull();
    expect(wavs()).toEqual([young]);
    expect(older).not.toBe(young);
    clock += 30_000;
    const fresh = await reply(store, "key:ccc"); // a write sweeps every subject's expired replies
    expect(wavs()).toEqual([fresh]);
  });

  it("sweeps at start-up (age, cap, older replies without a kind) and never the default clip or uploads", async () => {
    const wav = encodeWav(new Int16Array(1000), 16000);
    const plant = (name: string, meta: object | null) => {
      writeFileSync(join(dir, name), wav);
      if (meta) writeFileSync(join(dir, name.replace(/\.wav$/, ".json")), JSON.stringify(meta));
    };
    const ancient = clock - 10 * 86_400_000;
    plant(DEFAULT_CLIP, { text: "Hello!", tone: null }); // written before sidecars had a kind
    plant("my-upload.wav", { text: "", tone: null, kind: "upload", created_ms: ancient });
    plant("reply-1700000000000-abcdef01.wav", { text: "", tone: null, kind: "upload" }); // an upload, whatever its name
    plant(`reply-${ancient}-0123abcd.wav`, { text: "old", tone: "neutral" }); // an older reply: no kind, no subject
    for (let i = 0; i < 4; i++)
      plant(`reply-${clock - 4000 + i}-0000000${i}.wav`, {
        text: "",
        tone: null,
        kind: "reply",
        subject: "key:aaa",
        created_ms: clock - 4000 + i,
      });
    plant(`reply-${clock}-0000000f.wav`, { text: "", tone: null, kind: "reply", subject: "key:bbb", created_ms: clock });

    new AudioStore(dir, { maxAgeSeconds: 86_400, maxBytesPerSubject: 2 * ONE }, now);
    expect(wavs()).toEqual(
      [
        DEFAULT_CLIP,
        "my-upload.wav",
        "reply-1700000000000-abcdef01.wav",
        `reply-${clock - 3998}-00000002.wav`,
        `reply-${clock - 3997}-00000003.wav`,
        `reply-${clock}-0000000f.wav`,
      ].sort(),
    );
  });

  it("with no limits keeps everything", async () => {
    const store = new AudioStore(dir, { maxAgeSeconds: null, maxBytesPerSubject: null }, now);
    for (let i = 0; i < 5; i++) await reply(store, "key:aaa");
    clock += 365 * 86_400_000;
    await reply(store, "key:aaa");
    expect(wavs()).toHaveLength(6);
  });
});

describe("listing and ownership", () => {
  const wav = encodeWav(new Int16Array(24000), 48000); // half a second
  const plant = (name: string, meta: object | null) => {
    writeFileSync(join(dir, name), wav);
    if (meta) writeFileSync(join(dir, name.replace(/\.wav$/, ".json")), JSON.stringify(meta));
  };

  it("lists the default clip, the caller's own replies and uploads, and files placed by hand; newest first", async () => {
    const store = new AudioStore(dir, { maxAgeSeconds: null, maxBytesPerSubject: null }, now);
    plant(DEFAULT_CLIP, { text: "Hello!", tone: null, kind: "default" });
    const mineAt = clock - 5000;
    plant("mine.wav", { text: "hi", tone: "happy", kind: "upload", subject: "key:aaa", created_ms: mineAt, transcript_source: "uploader" });
    plant("theirs.wav", { text: "", tone: null, kind: "upload", subject: "key:bbb", created_ms: clock });
    plant("by-hand.wav", null);
    utimesSync(join(dir, "by-hand.wav"), (clock - 60_000) / 1000, (clock - 60_000) / 1000); // its time is its mtime
    const reply = await reply2(store, "key:aaa");
    const rows = store.list("key:aaa");
    expect(rows.map((r) => r.name).sort()).toEqual([DEFAULT_CLIP, "by-hand.wav", "mine.wav", reply].sort());
    // The default clip (no recorded time: its mtime, real now) is newer than the fake clock's files.
    expect(rows.map((r) => r.name)).toEqual([DEFAULT_CLIP, reply, "mine.wav", "by-hand.wav"]);
    expect(rows.find((r) => r.name === "mine.wav")).toEqual({
      name: "mine.wav",
      kind: "upload",
      duration_s: 0.5,
      sample_rate: 48000,
      bytes: wav.length,
      created_at: Math.floor(mineAt / 1000),
      tone: "happy",
      transcript: "hi",
      transcript_source: "uploader",
    });
    expect(rows.find((r) => r.name === reply)).toMatchObject({
      kind: "reply",
      duration_s: 0.06,
      sample_rate: 16000,
      tone: "neutral",
      transcript: "Hello.",
      transcript_source: "speech",
    });
    expect(rows.find((r) => r.name === "by-hand.wav")).toMatchObject({
      kind: "upload",
      transcript: "",
      tone: null,
      transcript_source: "none",
    });
    expect(
      store
        .list("key:bbb")
        .map((r) => r.name)
        .sort(),
    ).toEqual(["by-hand.wav", DEFAULT_CLIP, "theirs.wav"]);
    // Another credential's reply or upload is missing to this one; shared ones are everybody's.
    expect(store.get("theirs.wav", "key:aaa")).toBeNull();
    expect(store.get(reply, "key:bbb")).toBeNull();
    expect(store.get(DEFAULT_CLIP, "key:bbb")).not.toBeNull();
    expect(store.get("by-hand.wav", "key:bbb")).not.toBeNull();
    expect(store.get("theirs.wav")).not.toBeNull(); // no subject given: the box itself
  });

  it("writes whole files (temporary name, rename) and clears leftovers of a crash at start", () => {
    writeFileSync(join(dir, ".partial-0123456789ab-x.wav"), "half");
    const store = new AudioStore(dir);
    expect(readdirSync(dir)).toEqual([]);
    store.put("x.wav", new Int16Array(10), 16000, { text: "", tone: null, kind: "upload", subject: "s", created_ms: clock });
    expect(readdirSync(dir).sort()).toEqual(["x.json", "x.wav"]);
    expect(store.updateUpload("x.wav", clock, { text: "words", transcript_source: "recogniser" })).toBe(true);
    expect(store.updateUpload("x.wav", clock + 1, { text: "stale" })).toBe(false); // a later upload replaced it
    expect(sidecar("x.wav")).toMatchObject({ text: "words", kind: "upload", subject: "s" });
    expect(() => store.put("../x.wav", new Int16Array(1), 16000, { text: "", tone: null, kind: "upload" })).toThrow(/unsafe/);
    expect(store.get("../x.wav")).toBeNull();
  });
});

async function reply2(store: AudioStore, subject: string): Promise<string> {
  clock += 1000;
  return store.synthesise(speaker, "Hello.", "neutral", { subject: subject });
}
