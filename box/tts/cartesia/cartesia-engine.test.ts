// The Cartesia engine's speech against the local fake over a real socket: streaming, word timings,
// sample counts, the request it sends, voice id checks and aborts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { VoiceProviderError, type UtteranceChunk } from "../engine.ts";
import { CartesiaEngine, CARTESIA_INFO, type CartesiaEngineOptions } from "./cartesia-engine.ts";
import { FAKE_CARTESIA_KEY, FAKE_VOICES, FakeCartesia, sleep } from "./testing/fake-cartesia.ts";
import { MS_PER_CHAR, speak } from "./testing/fake-speech.ts";

const KATIE = FAKE_VOICES[0].id;
let fake: FakeCartesia;

beforeAll(async () => {
  fake = await new FakeCartesia().listen();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const engine = (o: Partial<CartesiaEngineOptions> = {}) =>
  new CartesiaEngine({ baseUrl: fake.url, apiKey: FAKE_CARTESIA_KEY, timeoutMs: 2000, defaultVoice: KATIE, ...o });

async function failure(p: Promise<unknown> | AsyncIterable<unknown>): Promise<any> {
  try {
    if (Symbol.asyncIterator in p) for await (const _ of p as AsyncIterable<unknown>);
    else await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

describe("CartesiaEngine: identity", () => {
  it("is the hosted, bring-your-own-key cartesia engine", () => {
    const e = engine();
    expect(e.id).toBe("cartesia");
    expect(e.ready).toBe(true);
    expect(e.info).toEqual({ label: "Cartesia", local: false, byo: true, clone: false, prepare: false });
    expect(CARTESIA_INFO).toBe(e.info);
    expect(e.model).toBe("sonic-3");
    expect(e.sampleRate).toBe(24000);
    expect(e.defaultVoiceId).toBe(KATIE);
    expect(engine({ defaultVoice: undefined }).defaultVoiceId).toBeUndefined();
    expect(() => engine({ sampleRate: 12345 as never })).toThrow(/12345 Hz/);
  });
});

describe("CartesiaEngine.stream", () => {
  it("yields the first audio while later chunks are still being sent", async () => {
    fake.mode = { chunkDelayMs: 60, chunkMs: 100 };
    const started = performance.now();
    const arrivals: number[] = [];
    for await (const c of engine().stream("Hello there, how are you today?"))
      if (c.pcm.length > 0) arrivals.push(performance.now() - started);
    const total = performance.now() - started;
    // 31 characters = 1.86 s of audio = 19 chunks, 60 ms apart.
    expect(arrivals.length).toBe(19);
    expect(total).toBeGreaterThan(18 * 60 * 0.9);
    expect(arrivals[0]).toBeLessThan(total - 500);
  });

  it("gives word timings from the timestamps events, in ms from the first sample", async () => {
    const chunks: UtteranceChunk[] = [];
    for await (const c of engine().stream("Hello there friend.")) chunks.push(c);
    const words = chunks.flatMap((c) => c.words ?? []);
    expect(words).toEqual([
      { text: "Hello", startMs: 0, endMs: 300 },
      { text: "there", startMs: 360, endMs: 660 },
      { text: "friend.", startMs: 720, endMs: 1140 },
    ]);
    // Timings come in chunks of their own, interleaved with the audio, never with samples.
    for (const c of chunks) expect(c.words === undefined || c.pcm.length === 0).toBe(true);
    expect(chunks.findIndex((c) => c.words)).toBeLessThan(chunks.length - 1);
    expect(chunks.every((c) => c.sampleRate === 24000 && c.phonemes === undefined)).toBe(true);
  });

  it("sends only the required fields and the version and auth headers on a plain call", async () => {
    await engine().synthesize("Hi.");
    const [req] = fake.speechRequests;
    expect(req.method).toBe("POST");
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_CARTESIA_KEY}`);
    expect(req.headers["cartesia-version"]).toBe("2026-03-01");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers.accept).toBe("text/event-stream");
    expect(req.body).toEqual({
      model_id: "sonic-3",
      transcript: "Hi.",
      voice: { mode: "id", id: KATIE },
      output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: 24000 },
      add_timestamps: true,
    });
  });

  it("sends the language as a primary tag and the rate as sonic-3 speed, clamped to 0.6..1.5", async () => {
    await engine({ language: "en-US" }).synthesize("Hola.", { language: "es-MX", rate: 1.2 });
    await engine().synthesize("Vite.", { rate: 3 });
    await engine({ model: "sonic-2", version: "2025-04-16" }).synthesize("Slow.", { rate: 0.7 });
    await engine({ model: "sonic-2", language: "fr" }).synthesize("Normal.", { rate: 1.05 });
    const bodies = fake.speechRequests.map((r) => r.body);
    expect(bodies[0]).toMatchObject({ language: "es", generation_config: { speed: 1.2 } });
    expect(bodies[1]).toMatchObject({ generation_config: { speed: 1.5 } });
    expect(bodies[1].language).toBeUndefined();
    expect(bodies[2]).toMatchObject({ model_id: "sonic-2", speed: "slow" });
    expect(bodies[2].generation_config).toBeUndefined();
    expect(fake.speechRequests[2].headers["cartesia-version"]).toBe("2025-04-16");
    expect(bodies[3]).toMatchObject({ language: "fr" });
    expect(bodies[3].speed).toBeUndefined();
  });
});

describe("CartesiaEngine.synthesize", () => {
  it("collects the stream: samples match 60 ms per character and the words fit inside the audio", async () => {
    for (const sampleRate of [16000, 24000] as const) {
      const text = "One two three four.";
      const u = await engine({ sampleRate }).synthesize(text);
      expect(u.sampleRate).toBe(sampleRate);
      expect(u.pcm.length).toBe(text.length * ((sampleRate * MS_PER_CHAR) / 1000));
      expect(u.durationMs).toBeCloseTo(text.length * MS_PER_CHAR, 6);
      expect(u.pcm).toEqual(speak(text, sampleRate).pcm);
      expect(u.phonemes).toEqual([]);
      expect(u.words.map((w) => w.text)).toEqual(["One", "two", "three", "four."]);
      expect(u.words[u.words.length - 1].endMs).toBeLessThanOrEqual(u.durationMs);
      for (let i = 1; i < u.words.length; i++) expect(u.words[i].startMs).toBeGreaterThanOrEqual(u.words[i - 1].endMs);
    }
    expect(fake.speechRequests.map((r) => r.body.output_format.sample_rate)).toEqual([16000, 24000]);
  });

  it("joins samples split across chunks at odd byte offsets", async () => {
    fake.mode = { oddChunks: true, chunkMs: 37 };
    const u = await engine().synthesize("Straddling samples.");
    expect(u.pcm).toEqual(speak("Straddling samples.", 24000).pcm);
  });

  it("answers blank text with an empty utterance and no request", async () => {
    expect(await engine().synthesize("  \n")).toEqual({
      pcm: new Int16Array(0),
      sampleRate: 24000,
      phonemes: [],
      words: [],
      durationMs: 0,
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("CartesiaEngine: voice ids", () => {
  it("refuses ids outside ^[A-Za-z0-9_-]{1,64}$ before any request, as a 404 the box reads as unknown_voice", async () => {
    for (const voice of ["../voices", "a b", "x".repeat(65), "ké", "id?x=1", "a/b"]) {
      const err = await failure(engine().synthesize("Hello.", { voice }));
      expect(err).toBeInstanceOf(VoiceProviderError);
      expect(err).toMatchObject({ status: 404, retryable: false, failure: "refused" });
      expect(err.message).toMatch(/^Cartesia has no voice .*voice ids are 1 to 64 letters/);
    }
    expect(await failure(engine({ defaultVoice: "not a voice" }).stream("Hello."))).toMatchObject({ status: 404, failure: "refused" });
    expect(fake.requests).toHaveLength(0);
  });

  it("without a voice from the call or the options, speaks with the account's first listed voice (asked once)", async () => {
    const e = engine({ defaultVoice: undefined });
    await e.synthesize("One.");
    await e.synthesize("Two.");
    expect(fake.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
      "GET /voices?limit=1",
      "POST /tts/sse?",
      "POST /tts/sse?",
    ]);
    expect(fake.speechRequests[1].body.voice.id).toBe(KATIE);
    fake.voices = [];
    const none = await failure(engine({ defaultVoice: undefined }).stream("Hello."));
    expect(none).toMatchObject({
      status: 404,
      failure: "refused",
      message: "Cartesia lists no voices on this account, and the call named none.",
    });
    fake.voices = FAKE_VOICES.slice();
  });

  it("speaks with the call's voice over the default", async () => {
    await engine().synthesize("Hola.", { voice: FAKE_VOICES[1].id });
    expect(fake.speechRequests[0].body.voice).toEqual({ mode: "id", id: FAKE_VOICES[1].id });
  });
});

describe("CartesiaEngine: abort", () => {
  it("stops the request when the signal aborts mid-stream and rethrows the signal's reason", async () => {
    fake.mode = { chunkDelayMs: 80 };
    const ctl = new AbortController();
    let audio = 0;
    const err = await failure(
      (async () => {
        for await (const c of engine().stream("A long sentence that takes a while.", { signal: ctl.signal })) {
          audio += c.pcm.length;
          if (audio > 0) ctl.abort();
        }
      })(),
    );
    expect(err).toBe(ctl.signal.reason);
    expect(err.name).toBe("AbortError");
    await sleep(100);
    expect(fake.abandoned).toBe(1);
  });

  it("lets no buffered audio through once the signal has aborted", async () => {
    const ctl = new AbortController();
    const got: number[] = [];
    const err = await failure(
      (async () => {
        for await (const c of engine().stream("Everything arrives at once here.", { signal: ctl.signal })) {
          got.push(c.pcm.length);
          await sleep(50); // the whole answer is buffered by now
          ctl.abort();
        }
      })(),
    );
    expect(err.name).toBe("AbortError");
    expect(got).toHaveLength(1);
  });

  it("makes no request when the signal is already aborted", async () => {
    const ctl = new AbortController();
    ctl.abort(new Error("caller left"));
    const err = await failure(engine().stream("Hello.", { signal: ctl.signal }));
    expect(err.message).toBe("caller left");
    expect(fake.requests).toHaveLength(0);
  });

  it("aborts while waiting for the first byte too", async () => {
    fake.mode = { latencyMs: 1000 };
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const started = performance.now();
    const err = await failure(engine().stream("Hello.", { signal: ctl.signal }));
    expect(err.name).toBe("AbortError");
    expect(performance.now() - started).toBeLessThan(800);
  });

  it("closes the connection when the consumer stops early", async () => {
    fake.mode = { chunkDelayMs: 40 };
    for await (const c of engine().stream("Stop listening after the first chunk.")) if (c.pcm.length > 0) break;
    await sleep(100);
    expect(fake.abandoned).toBe(1);
  });
});
