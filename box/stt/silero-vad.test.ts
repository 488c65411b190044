import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SileroVad } from "./silero-vad.ts";
import { chunks, concat, energySpan, noise, silence, speech16k } from "./testing/speech-audio.ts";
import type { VadEvent } from "./vad-segmenter.ts";
import { VoiceActivity } from "./voice-activity.ts";

let vad: SileroVad;
beforeAll(async () => {
  vad = await SileroVad.load();
});
afterAll(async () => {
  await vad?.dispose();
});

async function segments(pcm: Int16Array, options = {}): Promise<VadEvent[]> {
  vad.reset();
  const activity = new VoiceActivity(vad, options);
  const pushed = await Promise.all(chunks(pcm).map((c) => activity.push(c)));
  return [...pushed.flat(), ...(await activity.flush())];
}

const speechEvents = (events: VadEvent[]) => events.filter((e) => e.type !== "probability");

describe("SileroVad", () => {
  it("runs the v4 model on one CPU thread (CUDA when present)", () => {
    expect(["cpu", "cuda"]).toContain(vad.executionProvider);
  });

  it("refuses a window that is not 512 samples", async () => {
    await expect(vad.process(new Float32Array(480))).rejects.toThrow(/512/);
  });

  it("finds a spoken sentence framed by silence, at the right places", async () => {
    const sentence = await speech16k("The quick brown fox jumps over the lazy dog.");
    const pcm = concat(silence(1000), sentence, silence(1500));
    const voice = energySpan(pcm)!;
    const events = await segments(pcm);
    const found = speechEvents(events);
    expect(found.map((e) => e.type)).toEqual(["speech_start", "speech_end"]);
    expect(Math.abs(found[0].atMs - voice.startMs)).toBeLessThanOrEqual(100);
    expect(Math.abs(found[1].atMs - voice.endMs)).toBeLessThanOrEqual(200);
    const end = found[1] as Extract<VadEvent, { type: "speech_end" }>;
    expect(end.durationMs).toBe(end.atMs - found[0].atMs);
    // Telemetry: every window scored, high inside the sentence, low in the leading silence.
    const probabilities = events.filter((e) => e.type === "probability");
    expect(probabilities).toHaveLength(Math.floor(pcm.length / 512));
    const mid = probabilities.find((e) => e.atMs >= (voice.startMs + voice.endMs) / 2 - 200 && e.probability > 0.8);
    expect(mid).toBeDefined();
    expect(Math.max(...probabilities.filter((e) => e.atMs < 800).map((e) => e.probability))).toBeLessThan(0.2);
  });

  it("hears two sentences apart as two segments", async () => {
    const a = await speech16k("Hello there.");
    const b = await speech16k("How are you today?");
    const found = speechEvents(await segments(concat(silence(500), a, silence(1200), b, silence(1000))));
    expect(found.map((e) => e.type)).toEqual(["speech_start", "speech_end", "speech_start", "speech_end"]);
  });

  it("hears nothing in silence or low noise", async () => {
    expect(speechEvents(await segments(silence(3000)))).toEqual([]);
    expect(speechEvents(await segments(noise(3000, 150)))).toEqual([]);
  });

  it("ignores a click shorter than the minimum speech", async () => {
    const click = Int16Array.from({ length: 16 * 30 }, (_, i) => Math.round(20000 * Math.sin(i / 3) * Math.exp(-i / 120)));
    const syllable = (await speech16k("Hello there.")).subarray(0, 16 * 400);
    const span = energySpan(syllable)!;
    const burst = syllable.subarray(span.startMs * 16, (span.startMs + 120) * 16); // 120 ms of voice < 250 ms
    const pcm = concat(silence(1000), click, silence(1000), burst, silence(1000));
    expect(speechEvents(await segments(pcm))).toEqual([]);
    // The burst is voice: with a lower minimum it is reported.
    expect(speechEvents(await segments(pcm, { minSpeechMs: 64 })).map((e) => e.type)).toEqual(["speech_start", "speech_end"]);
  });
});

describe("VoiceActivity.forgetHistory", () => {
  it("gives the next words the probabilities of a fresh stream, and keeps the audio time", async () => {
    // Whole 512-sample windows, so every push starts a window of its own.
    const windows = (pcm: Int16Array) => concat(pcm, new Int16Array((512 - (pcm.length % 512)) % 512));
    const words = windows(await speech16k("hello there"));
    const probabilities = (events: VadEvent[]) =>
      events.flatMap((e) => (e.type === "probability" ? [{ atMs: e.atMs, p: e.probability }] : []));
    vad.reset();
    const fresh = probabilities(await new VoiceActivity(vad, { probabilities: true }).push(words));

    vad.reset();
    const long = new VoiceActivity(vad, { probabilities: true });
    await long.push(windows(concat(await speech16k("please book a table for two"), silence(1024))));
    const carried = probabilities(await long.push(words));
    long.forgetHistory();
    const forgotten = probabilities(await long.push(words));

    // Without forgetting, the history changes the probabilities; after it they are the fresh ones.
    expect(carried.map((w) => w.p)).not.toEqual(fresh.map((w) => w.p));
    expect(forgotten.map((w) => w.p)).toEqual(fresh.map((w) => w.p));
    // The audio time goes on from where it was (the segmenter is not reset).
    expect(forgotten[0].atMs).toBe(carried.at(-1)!.atMs + 32);
  });
});
