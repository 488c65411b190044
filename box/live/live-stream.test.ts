// Streaming synthesis into the live session, against the ElevenLabs and Cartesia protocol fakes on
// real sockets: the first audio is on the timeline while the provider is still sending; a stream
// that stalls holds the avatar (silent, mouth at rest, the utterance not ended); an interrupt
// closes the provider's connection at once; a stream cut mid-clause plays what arrived and ends.
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { FakeElevenLabs } from "../tts/elevenlabs/testing/fake-elevenlabs.ts";
import { ElevenLabsEngine } from "../tts/elevenlabs/elevenlabs-engine.ts";
import { FakeCartesia, FAKE_CARTESIA_KEY, FAKE_VOICES } from "../tts/cartesia/testing/fake-cartesia.ts";
import { CartesiaEngine } from "../tts/cartesia/cartesia-engine.ts";
import { VoiceAccounts } from "../tts/accounts.ts";
import type { VoiceEngine } from "../tts/engine.ts";
import { WordPhonemizer } from "../lipsync/word-visemes.ts";
import { Speaker } from "./speaker.ts";
import { FrameRig } from "./testing/frame-rig.ts";

// The engines' own idle timeout is far beyond the test's: only the interrupt can close a stalled stream.
const KEY = "sk_el_stream_test_0000";
const TEXT = "Hello there, this sentence streams in while the avatar is already saying it.";
const pick = { subject: null };

/** Word-alone phonemes for the provider's word timings: an open vowel then closed lips. */
const phonemizer = new WordPhonemizer({
  synthesize: async () => ({
    pcm: new Int16Array(0),
    sampleRate: 22050,
    words: [],
    durationMs: 100,
    phonemes: [
      { phoneme: "a", startMs: 0, endMs: 70 },
      { phoneme: "m", startMs: 70, endMs: 100 },
    ],
  }),
});

const speakerOn = (engine: VoiceEngine, words = true) => new Speaker(VoiceAccounts.single(engine), 25, null, words ? phonemizer : null);
const flag = (p: Promise<unknown>) => {
  let settled = false;
  void p.then(() => (settled = true));
  return () => settled;
};

let rig: FrameRig;
afterEach(() => rig?.close());

describe("streaming synthesis into the live session (ElevenLabs)", () => {
  let fake: FakeElevenLabs;
  beforeAll(async () => {
    fake = await FakeElevenLabs.start({ apiKey: KEY, charsPerLine: 12, lineDelayMs: 150 });
  });
  afterAll(() => fake.close());
  const speaker = () => speakerOn(new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY, timeoutMs: 120_000 }));

  it("plays the first audio while the provider is still sending, and then all of it, unchanged", async () => {
    fake.fault = null;
    rig = new FrameRig();
    const g = await speaker().live(TEXT, "neutral", pick, rig.session.interruptSignal);
    const providerDone = flag(fake.of("speech").at(-1)!.finished);
    const s = rig.session.sayStream(g);
    const first = await rig.until((x) => x.peak > 1000);
    expect(first.playing).toBe(s.id);
    expect(providerDone()).toBe(false);
    expect(g.done).toBe(false);

    // The clock runs ahead of the stream here, so it catches up with it and waits.
    await rig.until(() => rig.events.some((e) => e.kind === "end"), 20_000, 2);
    expect(g.failure).toBeNull();
    expect(rig.events.map((e) => [e.kind, e.interrupted])).toEqual([
      ["start", false],
      ["end", false],
    ]);
    // Every sample, in order, nothing repeated or skipped across the waits.
    const whole = g.snapshot().pcm48k;
    const sent = rig.audioOf(s.id);
    expect(Array.from(sent.subarray(0, whole.length))).toEqual(Array.from(whole));
    expect(sent.subarray(whole.length).every((v) => v === 0)).toBe(true);
    expect(rig.shots.some((x) => x.playing === s.id && x.open > 20)).toBe(true);
    // Whenever the clock got ahead of the stream it waited: silent, mouth at rest.
    for (const w of rig.shots.filter((x) => x.waiting)) expect([w.peak, w.open]).toEqual([0, 0]);
  }, 30_000);

  it("a stream that stalls holds the avatar (silent, at rest, not ended); an interrupt closes the provider's connection", async () => {
    fake.fault = "stall";
    rig = new FrameRig();
    const g = await speaker().live(TEXT, "neutral", pick, rig.session.interruptSignal);
    const request = fake.of("speech").at(-1)!;
    const s = rig.session.sayStream(g);
    await rig.until((x) => x.playing === s.id && x.peak > 1000);
    await rig.until((x) => x.waiting);
    for (let n = 0; n < 25; n++) {
      const x = await rig.step();
      expect([x.waiting, x.peak, x.open, x.playing]).toEqual([true, 0, 0, null]);
    }
    expect(rig.events.map((e) => e.kind)).toEqual(["start"]);
    expect(rig.session.speaking).toBe(true);
    expect(rig.session.isPending(s.id)).toBe(true);

    rig.session.interrupt();
    await request.finished;
    expect(request.closedEarly).toBe(true);
    await g.finished;
    const after = await rig.step();
    expect([after.peak, after.playing, after.waiting]).toEqual([0, null, false]);
    expect(rig.events.at(-1)).toMatchObject({ kind: "end", interrupted: true });
    expect(rig.session.speaking).toBe(false);
  }, 30_000);

  it("a stream cut mid-clause plays what arrived, fades out, and ends the utterance", async () => {
    fake.fault = "cut";
    rig = new FrameRig();
    const g = await speaker().live(TEXT, "neutral", pick, rig.session.interruptSignal);
    const s = rig.session.sayStream(g);
    await g.finished;
    expect(g.failure?.message).toBeTruthy();
    const end = await rig.until(() => rig.events.some((e) => e.kind === "end"));
    expect(rig.events.map((e) => [e.kind, e.interrupted])).toEqual([
      ["start", false],
      ["end", false],
    ]);
    const whole = g.snapshot().pcm48k;
    expect(whole.length).toBeGreaterThan(0);
    expect(Array.from(rig.audioOf(s.id).subarray(0, whole.length))).toEqual(Array.from(whole));
    expect(Math.abs(whole[whole.length - 1])).toBeLessThan(200); // no click where it broke
    expect(end.peak).toBe(0);
    expect(rig.session.speaking).toBe(false);
  }, 30_000);
});

describe("streaming synthesis into the live session (Cartesia, mouth from the audio)", () => {
  let fake: FakeCartesia;
  beforeAll(async () => {
    fake = await new FakeCartesia().listen();
  });
  afterAll(() => fake.close());
  const speaker = () =>
    speakerOn(
      new CartesiaEngine({ baseUrl: fake.url, apiKey: FAKE_CARTESIA_KEY, defaultVoice: FAKE_VOICES[0].id, timeoutMs: 120_000 }),
      false,
    );

  it("the first audio plays before the stream ends; the whole clause follows unchanged", async () => {
    fake.reset();
    fake.mode = { latencyMs: 30, chunkDelayMs: 40 };
    rig = new FrameRig();
    const g = await speaker().live(TEXT, "neutral", pick, rig.session.interruptSignal);
    const s = rig.session.sayStream(g);
    await rig.until((x) => x.peak > 1000);
    expect(g.done).toBe(false);
    await rig.until(() => rig.events.some((e) => e.kind === "end"), 4000, 4);
    expect(g.failure).toBeNull();
    const whole = g.snapshot().pcm48k;
    expect(Array.from(rig.audioOf(s.id).subarray(0, whole.length))).toEqual(Array.from(whole));
    for (const w of rig.shots.filter((x) => x.waiting)) expect([w.peak, w.open]).toEqual([0, 0]);
    expect(fake.abandoned).toBe(0);
  }, 30_000);

  it("a stall waits; an interrupt abandons the provider's stream at once", async () => {
    fake.reset();
    fake.mode = { stallAfterChunks: 8 };
    rig = new FrameRig();
    const g = await speaker().live(TEXT, "neutral", pick, rig.session.interruptSignal);
    rig.session.sayStream(g);
    await rig.until((x) => x.peak > 1000);
    await rig.until((x) => x.waiting);
    for (let n = 0; n < 10; n++) expect((await rig.step()).peak).toBe(0);
    expect(rig.events.map((e) => e.kind)).toEqual(["start"]);
    rig.session.interrupt();
    await g.finished;
    for (let n = 0; n < 50 && fake.abandoned === 0; n++) await new Promise((r) => setTimeout(r, 10));
    expect(fake.abandoned).toBe(1);
    expect(rig.session.speaking).toBe(false);
  }, 30_000);

  it("a connection closed mid-clause ends the utterance cleanly with what arrived", async () => {
    fake.reset();
    fake.mode = { closeAfterChunks: 6 };
    rig = new FrameRig();
    const g = await speaker().live(TEXT, "neutral", pick, rig.session.interruptSignal);
    const s = rig.session.sayStream(g);
    await g.finished;
    expect(g.failure).not.toBeNull();
    await rig.until(() => rig.events.some((e) => e.kind === "end"));
    expect(rig.events.at(-1)).toMatchObject({ kind: "end", interrupted: false });
    const whole = g.snapshot().pcm48k;
    expect(Array.from(rig.audioOf(s.id).subarray(0, whole.length))).toEqual(Array.from(whole));
    expect(rig.session.speaking).toBe(false);
  }, 30_000);
});
