import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeWav } from "../wav.ts";
import { ChatterboxEngine, type ChatterboxEngineOptions } from "./chatterbox-engine.ts";
import { FakeChatterbox, tone } from "./testing/fake-chatterbox.ts";

let fake: FakeChatterbox;
const engine = (extra: Partial<ChatterboxEngineOptions> = {}) => new ChatterboxEngine({ baseUrl: fake.url, timeoutMs: 2_000, ...extra });
const ttsRequests = () => fake.requests.filter((r) => r.path === "/tts");
const wav = (seconds: number) => encodeWav(tone(seconds * 24_000, 24_000, 200), 24_000);

beforeEach(async () => {
  fake = await FakeChatterbox.start();
});
afterEach(async () => {
  await fake.close();
});

describe("chatterbox speech (POST /tts)", () => {
  it("asks for a predefined voice exactly as the server documents it", async () => {
    await engine().synthesize("Hello there.", { voice: "Emily.wav" });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0];
    expect([req.method, req.path, req.headers["content-type"]]).toEqual(["POST", "/tts", "application/json"]);
    expect(req.json).toEqual({
      text: "Hello there.",
      voice_mode: "predefined",
      predefined_voice_id: "Emily.wav",
      output_format: "wav",
      split_text: true,
      chunk_size: 120,
      stream: false,
    });
    expect(req.headers.authorization).toBeUndefined();
  });

  it("asks for a cloned voice by its reference file, with rate, language and knobs (clamped)", async () => {
    const e = engine({ language: "de", temperature: 3, exaggeration: 0.1, cfgWeight: 0.5, seed: 42, chunkSize: 20, apiKey: "proxy-key" });
    await e.synthesize("Guten Tag.", { voice: "clone:Gianna.wav", rate: 9 });
    expect(fake.requests[0].json).toEqual({
      text: "Guten Tag.",
      voice_mode: "clone",
      reference_audio_filename: "Gianna.wav",
      output_format: "wav",
      split_text: true,
      chunk_size: 50,
      temperature: 1.5,
      exaggeration: 0.25,
      cfg_weight: 0.5,
      seed: 42,
      speed_factor: 4,
      language: "de",
      stream: false,
    });
    expect(fake.requests[0].headers.authorization).toBe("Bearer proxy-key");
    await e.synthesize("Bonjour.", { voice: "Emily.wav", language: "fr", rate: 0.5 });
    expect(fake.requests[1].json).toMatchObject({ language: "fr", speed_factor: 0.5, voice_mode: "predefined" });
  });

  it("decodes the WAV to s16 mono at the server's rate, with no timings", async () => {
    const text = "Hello there, how are you?";
    const u = await engine().synthesize(text, { voice: "Emily.wav" });
    expect(u.sampleRate).toBe(24_000);
    expect(u.pcm).toBeInstanceOf(Int16Array);
    expect(u.pcm.length).toBe(fake.samplesFor(text)); // 60 ms a character
    expect(u.durationMs).toBeCloseTo(text.length * 60, 5);
    expect([u.phonemes, u.words]).toEqual([[], []]);
    expect(Math.max(...u.pcm.subarray(0, 4800))).toBeGreaterThan(3000);
  });

  it("uses the server's shipped default voice when a call names none, asking for the list once", async () => {
    const e = engine();
    await e.synthesize("One.");
    await e.synthesize("Two.");
    expect(fake.requests.map((r) => r.path)).toEqual(["/get_predefined_voices", "/tts", "/tts"]);
    expect(ttsRequests()[1].json.predefined_voice_id).toBe("Emily.wav");
    await engine({ defaultVoice: "clone:Gianna.wav" }).synthesize("Three.");
    expect(fake.requests.at(-1)!.json.reference_audio_filename).toBe("Gianna.wav");
  });

  it("speaks nothing for blank text without asking the server", async () => {
    const u = await engine().synthesize("  \n");
    expect(u.pcm.length).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });

  it("streams PCM as the blocks arrive, the header's sizes being placeholders", async () => {
    fake.set({ streamGapMs: 300 });
    const text = "First sentence here. Second one. Third!";
    const started = performance.now();
    const arrivals: number[] = [];
    let total = 0;
    for await (const c of engine().stream(text, { voice: "Abigail.wav" })) {
      arrivals.push(performance.now() - started);
      expect(c.sampleRate).toBe(24_000);
      expect(c.phonemes ?? []).toEqual([]);
      total += c.pcm.length;
    }
    expect(ttsRequests()[0].json.stream).toBe(true);
    expect(total).toBe(fake.samplesFor(text));
    expect(arrivals.length).toBeGreaterThanOrEqual(3);
    expect(arrivals[0]).toBeLessThan(250); // the first sentence came before the others were sent
    expect(arrivals.at(-1)! - arrivals[0]).toBeGreaterThan(500);
  });

  it("reads a whole-file answer through stream() too (a server before v2.0.0 ignores `stream`)", async () => {
    const e = engine();
    const whole = await e.synthesize("Same text.", { voice: "Thomas.wav" });
    const parts: Int16Array[] = [];
    for await (const c of e.stream("Same text.", { voice: "Thomas.wav" })) parts.push(c.pcm);
    const joined = Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
    expect(joined.equals(Buffer.from(whole.pcm.buffer, whole.pcm.byteOffset, whole.pcm.byteLength))).toBe(true);
  });
});

describe("chatterbox voices", () => {
  it("lists predefined voices and reference files as catalogue rows", async () => {
    const rows = await engine().voices();
    expect(rows.map((r) => r.id)).toEqual(["Abigail.wav", "Emily.wav", "Thomas.wav", "clone:Gianna.wav"]);
    expect(rows[1]).toEqual({
      provider: "chatterbox",
      id: "Emily.wav",
      name: "Emily",
      language: "en",
      gender: "",
      description: "predefined voice",
      languages: ["en"],
      mode: "predefined",
      file: "Emily.wav",
    });
    expect(rows[3]).toMatchObject({ name: "Gianna", description: "cloned from a reference clip", mode: "clone", file: "Gianna.wav" });
    expect(fake.requests.map((r) => r.path).sort()).toEqual(["/api/model-info", "/get_predefined_voices", "/get_reference_files"]);
  });

  it("gives every voice the multilingual model's languages", async () => {
    await fake.close();
    fake = await FakeChatterbox.start({ multilingual: true });
    const rows = await engine().voices();
    expect(rows[0]).toMatchObject({ language: "en", languages: ["en", "de", "fr", "ja"] });
  });

  it("leaves out files that could not be asked for safely", async () => {
    await fake.close();
    fake = await FakeChatterbox.start({ predefined: ["Emily.wav", "bad\u0001.wav"], references: ["x".repeat(200) + ".wav"] });
    expect((await engine().voices()).map((r) => r.id)).toEqual(["Emily.wav"]);
  });
});

describe("chatterbox model info and warm-up", () => {
  it("answers the server's model info and follows `loaded` for readiness", async () => {
    const e = engine();
    expect(e.ready).toBe(true);
    const info = await e.modelInfo();
    expect(info).toMatchObject({ loaded: true, type: "turbo", sample_rate: 24_000, supports_multilingual: false });
    fake.set({ modelLoaded: false });
    expect((await e.modelInfo()).loaded).toBe(false);
    expect(e.ready).toBe(false);
    fake.set({ modelLoaded: true });
    await e.synthesize("Back.", { voice: "Emily.wav" });
    expect(e.ready).toBe(true);
  });

  it("warms a voice with a short throwaway synthesis", async () => {
    const answer = await engine().prepareVoice("clone:Gianna.wav");
    expect(answer).toEqual({ voice_id: "clone:Gianna.wav", ready: true, ms: expect.any(Number) });
    expect(ttsRequests()[0].json).toMatchObject({ text: "Hello.", voice_mode: "clone", reference_audio_filename: "Gianna.wav" });
  });

  it("says what it is", () => {
    const e = engine();
    expect([e.id, e.info]).toEqual([
      "chatterbox",
      { label: "Chatterbox (self-hosted)", local: true, byo: false, clone: true, prepare: true },
    ]);
  });
});

/** An uploader's owner tag (clone-owners.ts). */
const OWNER = "0123456789abcdef";

describe("chatterbox cloning (POST /upload_reference)", () => {
  it("uploads a clip as multipart `files`, then lists and speaks with the new voice", async () => {
    const e = engine();
    const clip = wav(8);
    const id = await e.uploadReference("Ada Lovelace", clip, "recording.m4a", OWNER);
    expect(id).toMatch(/^clone:Ada_Lovelace--0123456789abcdef-[0-9a-f]{8}\.wav$/);
    const upload = fake.requests.find((r) => r.path === "/upload_reference")!;
    expect(upload.files).toHaveLength(1);
    expect(upload.files![0]).toMatchObject({ field: "files", filename: id.slice("clone:".length), contentType: "audio/wav" });
    expect(Buffer.from(fake.referenceFile(id.slice("clone:".length))!).equals(clip)).toBe(true);

    const row = (await e.voices()).find((r) => r.id === id);
    expect(row).toMatchObject({ name: "Ada Lovelace", mode: "clone", description: "cloned from a reference clip" });
    const u = await e.synthesize("Now in my own voice.", { voice: id });
    expect(u.pcm.length).toBe(fake.samplesFor("Now in my own voice."));
    expect(ttsRequests()[0].json).toMatchObject({ voice_mode: "clone", reference_audio_filename: id.slice("clone:".length) });
  });

  it("gives each upload of the same name its own file (the server keeps, not overwrites)", async () => {
    const e = engine();
    const a = await e.uploadReference("Me", wav(6), "a.wav", OWNER);
    const b = await e.uploadReference("Me", wav(7), "b.wav", OWNER);
    expect(a).not.toBe(b);
    expect(fake.referenceFile(b.slice(6))!.length).toBeGreaterThan(fake.referenceFile(a.slice(6))!.length);
  });

  it("names the clip after the file when no name is given, and takes MP3", async () => {
    const mp3 = new Uint8Array([...Buffer.from("ID3"), 4, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
    const id = await engine().uploadReference("  ", mp3, "C:\\clips\\Grandpa Joe.mp3", OWNER);
    expect(id).toMatch(/^clone:Grandpa_Joe--0123456789abcdef-[0-9a-f]{8}\.mp3$/);
  });

  it("passes on the server's reason when it refuses the clip", async () => {
    await expect(engine().uploadReference("Long", wav(31), "long.wav", OWNER)).rejects.toMatchObject({
      name: "VoiceProviderError",
      status: 400,
      failure: "refused",
      message: expect.stringMatching(
        /^Chatterbox refused the reference upload \(HTTP 400: Reference audio duration \(31\.00s\) exceeds maximum allowed \(30s\)\)\.$/,
      ),
    });
  });

  it("refuses bytes that are neither WAV nor MP3 without sending them", async () => {
    await expect(engine().uploadReference("x", Buffer.from("hello"), "x.wav", OWNER)).rejects.toMatchObject({
      name: "ReferenceClipError",
      reason: "not_audio",
    });
    expect(fake.requests).toHaveLength(0);
  });
});
