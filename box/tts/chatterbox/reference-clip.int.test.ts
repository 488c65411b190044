// Real ffmpeg/ffprobe: clips are made here with ffmpeg, then checked as an upload would be.
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeWav } from "../wav.ts";
import { ChatterboxEngine } from "./chatterbox-engine.ts";
import { prepareReferenceClip, ReferenceClipError, type ReferenceClipOptions } from "./reference-clip.ts";
import { FakeChatterbox } from "./testing/fake-chatterbox.ts";

const FFMPEG = "/usr/bin/ffmpeg";
let dir: string;
let work: string;
const clip = (name: string) => readFile(join(dir, name));
const make = (name: string, ...args: string[]) =>
  execFileSync(FFMPEG, ["-v", "error", "-y", ...args, join(dir, name)], { stdio: "ignore" });
const sine = (seconds: number) => ["-f", "lavfi", "-i", `sine=frequency=330:sample_rate=44100:duration=${seconds}`];

async function refusal(bytes: Uint8Array, options: ReferenceClipOptions = {}): Promise<ReferenceClipError> {
  try {
    await prepareReferenceClip(bytes, { tmpDir: work, ...options });
  } catch (err) {
    expect(err).toBeInstanceOf(ReferenceClipError);
    return err as ReferenceClipError;
  }
  throw new Error("expected a refusal");
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reference-clips-"));
  work = await mkdtemp(join(tmpdir(), "reference-work-"));
  make("tone-2s.wav", ...sine(2));
  make("tone-10s.ogg", ...sine(10), "-ac", "2", "-c:a", "libvorbis");
  make("tone-10s.m4a", ...sine(10), "-c:a", "aac");
  make("tone-45s.mp3", ...sine(45), "-c:a", "libmp3lame");
  make("tone-70s.wav", ...sine(70), "-ar", "8000");
  make("silence-10s.wav", "-f", "lavfi", "-i", "anullsrc=r=24000:cl=mono", "-t", "10");
  make("image.png", "-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1");
  make("two-hours.mp3", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "7200", "-c:a", "libmp3lame", "-b:a", "8k");
  await writeFile(join(dir, "notes.txt"), "These are not the clips you are looking for.\n".repeat(50));
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

describe("prepareReferenceClip (real ffmpeg)", () => {
  it("transcodes a 10 s stereo Ogg tone to mono 24 kHz 16-bit WAV", async () => {
    const out = await prepareReferenceClip(await clip("tone-10s.ogg"), { tmpDir: work });
    const { pcm, sampleRate } = decodeWav(out.wav);
    expect([out.sampleRate, sampleRate]).toEqual([24_000, 24_000]);
    expect(Buffer.from(out.wav.subarray(22, 24)).readUInt16LE(0)).toBe(1); // mono
    expect(Buffer.from(out.wav.subarray(34, 36)).readUInt16LE(0)).toBe(16);
    expect(pcm.length / 24_000).toBeCloseTo(10, 1);
    expect(out.seconds).toBeCloseTo(10, 1);
    expect(out.rmsDbfs).toBeGreaterThan(-30); // lavfi sine: amplitude 1/8, about -24 dBFS RMS
  });

  it("reads containers that need seeking (M4A)", async () => {
    const out = await prepareReferenceClip(await clip("tone-10s.m4a"), { tmpDir: work });
    expect(out.seconds).toBeCloseTo(10, 1);
  });

  it("refuses a 2 s tone as too short", async () => {
    const err = await refusal(await clip("tone-2s.wav"));
    expect([err.reason, err.message]).toEqual(["too_short", "too short: 2.0 s, at least 5 s"]);
  });

  it("refuses 10 s of silence", async () => {
    const err = await refusal(await clip("silence-10s.wav"));
    expect([err.reason, err.message]).toEqual(["silent", "silent: the clip is quieter than -50 dBFS throughout"]);
  });

  it.each(["notes.txt", "image.png"])("refuses %s as not audio", async (name) => {
    const err = await refusal(await clip(name));
    expect(err.reason).toBe("not_audio");
    expect(err.message).toMatch(/^not audio: /);
  });

  it("refuses an empty file as not audio", async () => {
    expect((await refusal(new Uint8Array(0))).message).toBe("not audio: the file is empty");
  });

  it("refuses a two-hour file quickly, by its header, before any transcoding", async () => {
    const bytes = await clip("two-hours.mp3");
    const started = performance.now();
    // No ffmpeg at all: only ffprobe can have answered.
    const err = await refusal(bytes, { ffmpegPath: "/nonexistent/ffmpeg", ffprobePath: "/usr/bin/ffprobe" });
    expect([err.reason, err.message]).toEqual(["too_long", "too long: 120 min, at most 60 s"]);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("refuses 70 s as too long, and honours maxSeconds", async () => {
    const bytes = await clip("tone-70s.wav");
    expect((await refusal(bytes)).message).toBe("too long: 70.0 s, at most 60 s");
    const out = await prepareReferenceClip(bytes, { tmpDir: work, maxSeconds: 80, keepSeconds: 80 });
    expect(out.seconds).toBeCloseTo(70, 1);
  });

  it("cuts a 45 s clip to the 30 s the server accepts", async () => {
    const out = await prepareReferenceClip(await clip("tone-45s.mp3"), { tmpDir: work });
    expect(out.seconds).toBe(30);
    expect(out.sourceSeconds).toBeCloseTo(45, 0);
  });

  it("says the box cannot read audio when ffmpeg is missing", async () => {
    const err = await refusal(await clip("tone-10s.ogg"), { ffmpegPath: "/nonexistent/ffmpeg", ffprobePath: "/usr/bin/ffprobe" });
    expect(err.reason).toBe("unavailable");
    expect((await refusal(await clip("tone-10s.ogg"), { ffmpegPath: "/nonexistent/ffmpeg" })).reason).toBe("unavailable");
  });

  it("leaves no temporary files behind", async () => {
    expect(await readdir(work)).toEqual([]);
  });

  it("a prepared clip uploads to Chatterbox and speaks", async () => {
    const fake = await FakeChatterbox.start();
    try {
      const engine = new ChatterboxEngine({ baseUrl: fake.url });
      const prepared = await prepareReferenceClip(await clip("tone-45s.mp3"), { tmpDir: work });
      const id = await engine.uploadReference("Long talker", prepared.wav, "tone-45s.mp3", "0123456789abcdef");
      expect(id).toMatch(/^clone:Long_talker--0123456789abcdef-[0-9a-f]{8}\.wav$/);
      const u = await engine.synthesize("Hello.", { voice: id });
      expect(u.pcm.length).toBe(fake.samplesFor("Hello."));
    } finally {
      await fake.close();
    }
  });
});
