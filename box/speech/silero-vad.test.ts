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
