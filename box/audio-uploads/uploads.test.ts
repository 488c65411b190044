// POST /api/upload's parts without a server: stored names, the tone scorer, container sniffing,
// ffmpeg decoding and its refusals, the multipart reader, and the service over a real audio
// store (ownership, overwrite, recognition at upload time, reply retention never touching uploads).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storedAudioName } from "./audio-name.ts";
import { scoreTone, toneFromWords } from "../text/tone-from-words.ts";
import { sniffContainer, transcodeToClip } from "./transcode.ts";
import { readUploadForm } from "../http/multipart.ts";
import { AudioUploads } from "./service.ts";
import { transcribeClip } from "./transcribe.ts";
import { AudioStore } from "../live/audio-store.ts";
import { AsrStreamBase, type AsrEngine } from "../stt/asr.ts";
import { PocketsphinxEngine } from "../stt/pocketsphinx.ts";
import { decodeWav } from "../tts/wav.ts";

let fixtures: string;
const fx = (name: string) => new Uint8Array(readFileSync(join(fixtures, name)));
const ff = (...args: string[]) => execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-y", ...args], { cwd: fixtures });

beforeAll(() => {
  fixtures = mkdtempSync(join(tmpdir(), "upload-fixtures-"));
  execFileSync("espeak-ng", ["-w", join(fixtures, "happy.wav"), "I am so happy to see you"]);
  ff("-i", "happy.wav", "happy.mp3");
  ff("-i", "happy.wav", "-c:a", "libvorbis", "happy.ogg");
  ff("-i", "happy.wav", "-c:a", "libopus", "happy.webm");
  ff("-f", "lavfi", "-i", "testsrc=size=64x64:rate=5", "-t", "1", "-c:v", "libvpx", "video.webm");
  ff("-f", "lavfi", "-i", "sine=f=440:d=125", "-c:a", "libvorbis", "long.ogg");
  writeFileSync(join(fixtures, "text.wav"), "hello, this is only text\n");
  writeFileSync(join(fixtures, "bad.ogg"), Buffer.concat([Buffer.from("OggS"), Buffer.alloc(4000, 7)]));
}, 60_000);
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

describe("stored names", () => {
  const bytes = new Uint8Array([1, 2, 3]);
  it.each([
    ["hello.wav", "hello.wav"],
    ["Greeting Take 2.MP3", "greeting-take-2.wav"],
    ["../x.wav", "x.wav"],
    ["../../etc/passwd", "etc-passwd.wav"],
    ["a/b.wav", "a-b.wav"],
    ["C:\\clips\\intro.ogg", "c-clips-intro.wav"],
    ["Été à Paris.webm", "ete-a-paris.wav"],
    ["default-clip.wav", "upload-default-clip.wav"],
    ["reply-1700000000000-abcdef01.wav", "upload-reply-1700000000000-abcdef01.wav"],
    ["_x.wav", "audio-_x.wav"],
  ])("%s → %s", (input, out) => expect(storedAudioName(input, bytes)).toBe(out));

  it("an empty result is an id from the bytes (same bytes, same name)", () => {
    for (const input of [".wav", "", "日本語.mp3", "...", "/"]) expect(storedAudioName(input, bytes)).toMatch(/^audio-[0-9a-f]{12}\.wav$/);
    expect(storedAudioName(".wav", bytes)).toBe(storedAudioName("", bytes));
    expect(storedAudioName(".wav", new Uint8Array([9]))).not.toBe(storedAudioName(".wav", bytes));
  });

  it("is short and always a plain file name", () => {
    const n = storedAudioName(`${"x".repeat(500)}.wav`, bytes);
    expect(n.length).toBeLessThanOrEqual(84);
    expect(n).toMatch(/^[a-z0-9][a-z0-9_-]*\.wav$/);
  });
});

describe("tone from words", () => {
  it.each([
    ["I am so happy to see you", "happy"],
    ["I feel so sad and lonely today, I miss my old friend", "sad"],
    ["Wow, that is unbelievable!", "surprised"],
    ["Hmm, I wonder, perhaps we should think about it", "thoughtful"],
    ["This is important: you must be careful, it is dangerous", "serious"],
    ["The train leaves at nine from platform four", "neutral"],
    ["", "neutral"],
    ["I am not happy", "neutral"],
    ["happy but sad", "neutral"],
  ])("%j → %s", (text, tone) => expect(toneFromWords(text)).toBe(tone));

  it("one hit in a long speech is too thin a lead", () => {
    const filler = Array.from({ length: 120 }, () => "table").join(" ");
    expect(scoreTone(`great ${filler}`)).toMatchObject({ tone: "neutral", scores: { happy: 1 } });
    expect(toneFromWords(`great wonderful lovely ${filler}`)).toBe("happy");
  });
});

describe("decoding with ffmpeg", () => {
  it("recognises the four containers by their bytes, nothing else", () => {
    expect(["happy.wav", "happy.mp3", "happy.ogg", "happy.webm"].map((f) => sniffContainer(fx(f)))).toEqual(["wav", "mp3", "ogg", "webm"]);
    expect(sniffContainer(fx("text.wav"))).toBeNull();
    expect(sniffContainer(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull(); // PNG
  });

  it.each(["happy.wav", "happy.mp3", "happy.ogg", "happy.webm"])("decodes %s to mono 48 kHz", async (f) => {
    const pcm = await transcodeToClip(fx(f), { maxSeconds: 120 });
    expect(pcm.length / 48000).toBeGreaterThan(1.4);
    expect(pcm.length / 48000).toBeLessThan(1.8);
    expect(Math.max(...pcm.subarray(0, 48000))).toBeGreaterThan(1000);
  });

  it.each([
    ["text.wav", "unsupported_audio"],
    ["video.webm", "no_audio_stream"],
    ["bad.ogg", "invalid_audio"],
    ["long.ogg", "audio_too_long"],
  ])("refuses %s with 400 %s", async (f, code) => {
    await expect(transcodeToClip(fx(f), { maxSeconds: 120 })).rejects.toMatchObject({ status: 400, code, message: expect.any(String) });
  });

  it("no ffmpeg is 503", async () => {
    await expect(transcodeToClip(fx("happy.wav"), { maxSeconds: 120, ffmpegPath: "/nonexistent/ffmpeg" })).rejects.toMatchObject({
      status: 503,
      code: "transcoder_unavailable",
    });
  });
});

describe("multipart reader", () => {
  const opts = { limitBytes: 1000, filePart: "file", textParts: ["name", "transcript", "tone"] };
  const req = (form: FormData) => new Request("http://box/api/upload", { method: "POST", body: form });
  const blob = (n = 10) => new Blob([new Uint8Array(n)]);

  it("reads the file and the text parts", async () => {
    const f = new FormData();
    f.append("file", blob(), "a.wav");
    f.append("transcript", "hi there");
    const out = await readUploadForm(req(f), opts);
    expect(out.file.filename).toBe("a.wav");
    expect(out.file.bytes.length).toBe(10);
    expect(out.fields).toEqual({ transcript: "hi there" });
  });

  it("refuses another part name, a repeated part, a missing file, a text file part, and JSON", async () => {
    const cases: [FormData, string][] = [];
    let f = new FormData();
    f.append("audio", blob(), "a.wav");
    cases.push([f, "unknown_part"]);
    f = new FormData();
    f.append("file", blob(), "a.wav");
    f.append("file", blob(), "b.wav");
    cases.push([f, "duplicate_part"]);
    f = new FormData();
    f.append("tone", "happy");
    cases.push([f, "missing_file"]);
    f = new FormData();
    f.append("file", "not a file");
    cases.push([f, "missing_file"]);
    for (const [form, code] of cases) await expect(readUploadForm(req(form), opts)).rejects.toMatchObject({ status: 400, code });
    const json = new Request("http://box/api/upload", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    await expect(readUploadForm(json, opts)).rejects.toMatchObject({ status: 400, code: "invalid_body" });
  });

  it("is 413 past the limit, declared or streamed", async () => {
    const f = new FormData();
    f.append("file", blob(5000), "a.wav");
    await expect(readUploadForm(req(f), opts)).rejects.toMatchObject({ status: 413, code: "body_too_large" });
    const body = await new Response(f).arrayBuffer();
    const type = new Response(f).headers.get("content-type")!;
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array(body)), c.close()) });
    const chunked = new Request("http://box/api/upload", {
      method: "POST",
      headers: { "content-type": type },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expect(readUploadForm(chunked, opts)).rejects.toMatchObject({ status: 413 });
  });
});

/** A recogniser that hears `text` in whatever it is given, after `delayMs`. */
function fakeAsr(text: string, delayMs = 0): AsrEngine & { started: number } {
  class Stream extends AsrStreamBase {
    write(): void {}
    finalize(): void {}
    close(): void {
      this.state = "closed";
    }
    async finish(): Promise<string> {
      await new Promise((r) => setTimeout(r, delayMs));
      this.settle(text);
      return this.transcript();
    }
  }
  return {
    id: "fake",
    started: 0,
    async start() {
      this.started++;
      return new Stream();
    },
  };
}

describe("the upload service", () => {
  let dir: string;
  let clock = 1_700_000_000_000;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "uploads-"));
    clock = 1_700_000_000_000;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const sidecar = (name: string) => JSON.parse(readFileSync(join(dir, name.replace(/\.wav$/, ".json")), "utf8"));

  it("stores a 48 kHz WAV, recognises its words and infers the tone; the sidecar says who and what", async () => {
    const store = new AudioStore(dir);
    const uploads = new AudioUploads({ store, asr: fakeAsr("i am so happy to see you"), now: () => clock });
    const r = await uploads.upload({ filename: "Hello There.mp3", bytes: fx("happy.mp3") }, "key:aaa");
    expect(r).toMatchObject({
      ok: true,
      audio: "hello-there.wav",
      kind: "upload",
      sample_rate: 48000,
      tone: "happy",
      transcript: "i am so happy to see you",
      transcript_source: "recogniser",
      replaced: false,
      created_at: 1_700_000_000,
    });
    expect(r.duration_s).toBeCloseTo(1.62, 1);
    expect(r.bytes).toBe(readFileSync(join(dir, "hello-there.wav")).length);
    expect(decodeWav(new Uint8Array(readFileSync(join(dir, "hello-there.wav"))))).toMatchObject({ sampleRate: 48000 });
    expect(sidecar("hello-there.wav")).toEqual({
      text: "i am so happy to see you",
      tone: "happy",
      kind: "upload",
      subject: "key:aaa",
      created_ms: clock,
      transcript_source: "recogniser",
    });
    expect(readdirSync(dir).sort()).toEqual(["hello-there.json", "hello-there.wav"]); // nothing half-written left
  });

  it("an uploader's transcript wins over the recogniser, an explicit tone over the words", async () => {
    const asr = fakeAsr("something else");
    const uploads = new AudioUploads({ store: new AudioStore(dir), asr });
    expect(await uploads.upload({ filename: "a.wav", bytes: fx("happy.wav"), transcript: "  Wow,  what a surprise! " }, "s")).toMatchObject(
      { transcript: "Wow, what a surprise!", tone: "surprised", transcript_source: "uploader" },
    );
    expect(asr.started).toBe(0);
    expect(await uploads.upload({ filename: "b.wav", bytes: fx("happy.wav"), tone: "serious" }, "s")).toMatchObject({
      transcript: "something else",
      tone: "serious",
      transcript_source: "recogniser",
    });
    await expect(uploads.upload({ filename: "c.wav", bytes: fx("happy.wav"), tone: "angry" }, "s")).rejects.toMatchObject({
      status: 400,
      code: "unknown_tone",
    });
    await expect(uploads.upload({ filename: "c.wav", bytes: fx("happy.wav"), transcript: "x".repeat(4001) }, "s")).rejects.toMatchObject({
      status: 400,
      code: "transcript_too_long",
    });
  });

  it('without a recogniser: transcript "" and tone neutral', async () => {
    const uploads = new AudioUploads({ store: new AudioStore(dir), asr: null });
    expect(await uploads.upload({ filename: "a.ogg", bytes: fx("happy.ogg") }, "s")).toMatchObject({
      transcript: "",
      tone: "neutral",
      transcript_source: "none",
    });
  });

  it("answers before a slow recogniser finishes; the sidecar gets the words later (and after a restart)", async () => {
    const store = new AudioStore(dir);
    const uploads = new AudioUploads({ store, asr: fakeAsr("thank you so much, wonderful", 300), limits: { transcriptWaitMs: 20 } });
    expect(await uploads.upload({ filename: "slow.wav", bytes: fx("happy.wav") }, "s")).toMatchObject({
      transcript: "",
      tone: null,
      transcript_source: "pending",
    });
    await new Promise((r) => setTimeout(r, 600));
    expect(store.list("s")[0]).toMatchObject({
      name: "slow.wav",
      transcript: "thank you so much, wonderful",
      tone: "happy",
      transcript_source: "recogniser",
    });
    // A box stopped mid-recognition picks it up again at start.
    const meta = sidecar("slow.wav");
    writeFileSync(join(dir, "slow.json"), JSON.stringify({ ...meta, text: "", tone: null, transcript_source: "pending" }));
    const again = new AudioStore(dir);
    new AudioUploads({ store: again, asr: fakeAsr("we miss you, it is so sad") });
    await new Promise((r) => setTimeout(r, 100));
    expect(sidecar("slow.wav")).toMatchObject({ text: "we miss you, it is so sad", tone: "sad", transcript_source: "recogniser" });
  });

  it("the same filename overwrites the caller's own upload; another credential's is never touched", async () => {
    const store = new AudioStore(dir);
    const uploads = new AudioUploads({ store, asr: null, now: () => (clock += 1000) });
    expect(await uploads.upload({ filename: "clip.wav", bytes: fx("happy.wav") }, "key:aaa")).toMatchObject({
      audio: "clip.wav",
      replaced: false,
    });
    expect(await uploads.upload({ filename: "clip.mp3", bytes: fx("happy.mp3"), transcript: "second" }, "key:aaa")).toMatchObject({
      audio: "clip.wav",
      replaced: true,
      transcript: "second",
    });
    const other = await uploads.upload({ filename: "clip.wav", bytes: fx("happy.ogg") }, "key:bbb");
    expect(other.audio).toMatch(/^clip-[0-9a-f]{8}\.wav$/);
    expect(await uploads.upload({ filename: "clip.wav", bytes: fx("happy.ogg") }, "key:bbb")).toMatchObject({
      audio: other.audio,
      replaced: true,
    });
    expect(sidecar("clip.wav")).toMatchObject({ subject: "key:aaa", text: "second" });
    // Each lists (and may play) its own and the shared files, never the other's.
    expect(uploads.list("key:aaa").map((r) => r.name)).toEqual(["clip.wav"]);
    expect(uploads.list("key:bbb").map((r) => r.name)).toEqual([other.audio]);
    expect(store.get("clip.wav", "key:bbb")).toBeNull();
    expect(store.get("clip.wav", "key:aaa")).not.toBeNull();
    // A name held by the box's own kinds (here a file placed by hand) is never overwritten.
    writeFileSync(join(dir, "mine.wav"), readFileSync(join(dir, "clip.wav")));
    expect((await uploads.upload({ filename: "mine.wav", bytes: fx("happy.wav") }, "key:aaa")).audio).toMatch(/^mine-[0-9a-f]{8}\.wav$/);
    expect(uploads.list("key:bbb").map((r) => r.name)).toContain("mine.wav"); // no subject: everyone's
  });

  it("path characters in filenames stay inside the folder", async () => {
    const root = mkdtempSync(join(tmpdir(), "uploads-root-"));
    try {
      const audioDir = join(root, "audio");
      const uploads = new AudioUploads({ store: new AudioStore(audioDir), asr: null });
      const names = [];
      for (const filename of ["../x.wav", "a/b.wav", ".wav", "../../../../tmp/evil.wav"])
        names.push((await uploads.upload({ filename, bytes: fx("happy.wav") }, "s")).audio);
      expect(names.slice(0, 2)).toEqual(["x.wav", "a-b.wav"]);
      expect(names[2]).toMatch(/^audio-[0-9a-f]{12}\.wav$/);
      expect(names[3]).toBe("tmp-evil.wav");
      expect(readdirSync(root)).toEqual(["audio"]);
      expect(
        readdirSync(audioDir)
          .filter((n) => n.endsWith(".wav"))
          .sort(),
      ).toEqual([...names].sort());
      expect(existsSync("/tmp/evil.wav")).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("uploads are never swept by the reply retention (cap, age, start-up)", async () => {
    const speaker = { synthesize: async () => ({ pcm: new Int16Array(48000), sampleRate: 48000 }) as any };
    const retention = { maxAgeSeconds: 60, maxBytesPerSubject: 50_000 };
    const store = new AudioStore(dir, retention, () => clock);
    const uploads = new AudioUploads({ store, asr: null, now: () => clock });
    const up = (await uploads.upload({ filename: "keep.wav", bytes: fx("happy.wav") }, "key:aaa")).audio;
    for (let i = 0; i < 4; i++) {
      clock += 1000;
      await store.synthesise(speaker, "Hello.", "neutral", { subject: "key:aaa" }); // each ~96 KB: over the cap alone
    }
    clock += 3_600_000;
    await store.synthesise(speaker, "Hello.", "neutral", { subject: "key:aaa" });
    new AudioStore(dir, retention, () => clock + 86_400_000);
    expect(readdirSync(dir).filter((n) => n.endsWith(".wav"))).toEqual([up]);
    expect(store.get(up, "key:aaa")).not.toBeNull();
  });
});

// setup.sh installs pocketsphinx everywhere the tests run, so this never skips silently.
describe("the embedded recogniser over a whole clip", () => {
  it("hears words in espeak speech (pocketsphinx is weak on open speech: some words, not exact)", async () => {
    const engine = new PocketsphinxEngine();
    try {
      const { pcm, sampleRate } = decodeWav(fx("happy.wav"));
      const text = await transcribeClip(engine, pcm, sampleRate, { timeoutMs: 30_000 });
      expect(text).toMatch(/[a-z]/);
    } finally {
      engine.dispose();
    }
  });
});
