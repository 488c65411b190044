import { afterEach, describe, expect, it } from "vitest";
import { VoiceProviderError, type UtteranceChunk } from "../engine.ts";
import { ElevenLabsEngine, type ElevenLabsEngineOptions } from "./elevenlabs-engine.ts";
import { FakeElevenLabs, type FakeElevenLabsOptions } from "./testing/fake-elevenlabs.ts";
import { GEORGE, LUCIA } from "./testing/fake-voices.ts";

const KEY = "sk_test_0123456789abcdef";
let fake: FakeElevenLabs | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function setup(fakeOptions: Partial<FakeElevenLabsOptions> = {}, engineOptions: Partial<ElevenLabsEngineOptions> = {}) {
  fake = await FakeElevenLabs.start({ apiKey: KEY, ...fakeOptions });
  const engine = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY, timeoutMs: 2_000, ...engineOptions });
  return { fake, engine };
}

async function collect(iter: AsyncIterable<UtteranceChunk>): Promise<UtteranceChunk[]> {
  const out: UtteranceChunk[] = [];
  for await (const c of iter) out.push(c);
  return out;
}

describe("ElevenLabsEngine.stream against the fake", () => {
  it("gives the first chunk while the rest is still being generated", async () => {
    const { fake, engine } = await setup({ lineDelayMs: 150, charsPerLine: 10 });
    const text = "The quick brown fox jumps over the lazy dog, again and again.";
    const started = performance.now();
    let firstAt = 0;
    let answeredBeforeFirst = false;
    let answered = false;
    const chunks: UtteranceChunk[] = [];
    for await (const chunk of engine.stream(text, { voice: GEORGE })) {
      if (chunks.length === 0) {
        firstAt = performance.now() - started;
        void fake.requests[0].finished.then(() => (answered = true));
        await Promise.resolve();
        answeredBeforeFirst = answered;
      }
      chunks.push(chunk);
    }
    const total = performance.now() - started;
    expect(chunks.length).toBeGreaterThanOrEqual(6);
    expect(answeredBeforeFirst).toBe(false);
    expect(firstAt).toBeLessThan(total - 500); // 6 lines, 150 ms apart: the first came ≥ 750 ms early
    expect(chunks.every((c) => c.sampleRate === 24_000)).toBe(true);
  });

  it("sends the real request: xi-api-key, output_format in the query, JSON body with the model", async () => {
    const { fake, engine } = await setup();
    await engine.synthesize("Hi there.", { voice: GEORGE });
    const req = fake.of("speech")[0];
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`/v1/text-to-speech/${GEORGE}/stream/with-timestamps`);
    expect(req.headers["xi-api-key"]).toBe(KEY);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(Object.fromEntries(req.query)).toEqual({ output_format: "pcm_24000" });
    expect(req.body).toEqual({ text: "Hi there.", model_id: "eleven_flash_v2_5" });
  });

  it("PCM length matches the alignment's end, and words come from the character alignment", async () => {
    const { engine } = await setup({ charsPerLine: 4 }); // words straddle lines
    const u = await engine.synthesize("Hello there, world", { voice: GEORGE });
    expect(u.sampleRate).toBe(24_000);
    expect(u.phonemes).toEqual([]);
    expect(u.words).toEqual([
      { text: "Hello", startMs: 0, endMs: 300 },
      { text: "there,", startMs: 360, endMs: 720 },
      { text: "world", startMs: 780, endMs: 1080 },
    ]);
    expect(u.pcm.length).toBe(18 * 1440);
    expect(u.durationMs).toBeCloseTo(u.words.at(-1)!.endMs, 0);
    const peak = u.pcm.reduce((m, s) => Math.max(m, Math.abs(s)), 0);
    expect(peak).toBeGreaterThan(1000); // real audio, not silence
  });

  it("gives each word once, with the chunk that completes it, the last one at the end", async () => {
    const { engine } = await setup({ charsPerLine: 3 });
    const chunks = await collect(engine.stream("one two three", { voice: GEORGE }));
    const words = chunks.flatMap((c) => (c.words ?? []).map((w) => w.text));
    expect(words).toEqual(["one", "two", "three"]);
    const last = chunks.at(-1)!;
    expect(last.pcm.length).toBe(0);
    expect(last.words?.map((w) => w.text)).toEqual(["three"]);
  });

  it("joins a sample split across two lines", async () => {
    const even = await setup();
    const a = await even.engine.synthesize("split me up", { voice: GEORGE });
    await fake!.close();
    const odd = await setup({ oddByteSplit: true });
    const b = await odd.engine.synthesize("split me up", { voice: GEORGE });
    expect(b.pcm).toEqual(a.pcm);
  });

  it("keeps word times right even if a provider restarted the times on every line", async () => {
    const { engine } = await setup({ relativeTimes: true, charsPerLine: 4 });
    const u = await engine.synthesize("Hello there, world", { voice: GEORGE });
    expect(u.words.map((w) => [w.startMs, w.endMs])).toEqual([
      [0, 300],
      [360, 720],
      [780, 1080],
    ]);
  });

  it("takes another PCM rate, speed as voice_settings.speed (clamped), language_code only for v2.5 models", async () => {
    const { fake, engine } = await setup({}, { outputFormat: "pcm_16000" });
    const u = await engine.synthesize("abc", { voice: LUCIA, rate: 2, language: "es-MX" });
    expect(u.sampleRate).toBe(16_000);
    expect(u.pcm.length).toBe(3 * Math.round(16 * (60 / 1.2)));
    expect(Object.fromEntries(fake.of("speech")[0].query)).toEqual({ output_format: "pcm_16000" });
    expect(fake.of("speech")[0].body).toEqual({
      text: "abc",
      model_id: "eleven_flash_v2_5",
      language_code: "es",
      voice_settings: { speed: 1.2 },
    });

    const multi = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY, modelId: "eleven_multilingual_v2" });
    await multi.synthesize("abc", { voice: LUCIA, language: "es", rate: 1 });
    expect(fake.of("speech")[1].body).toEqual({ text: "abc", model_id: "eleven_multilingual_v2" });
  });

  it("refuses an output format that is not raw PCM", () => {
    expect(() => new ElevenLabsEngine({ outputFormat: "mp3_44100_128" as never })).toThrow(/raw PCM/);
  });

  it("makes no request for empty text", async () => {
    const { fake, engine } = await setup();
    const u = await engine.synthesize("   ", { voice: GEORGE });
    expect(u.pcm.length).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });

  it("uses the default voice when a call names none", async () => {
    const { fake, engine } = await setup({}, { defaultVoice: LUCIA });
    await engine.synthesize("hola");
    expect(fake.of("speech")[0].path).toContain(`/${LUCIA}/`);
  });

  it("a slow consumer is not a stalled stream", async () => {
    const { engine } = await setup({ charsPerLine: 5 }, { timeoutMs: 200 });
    let n = 0;
    for await (const _ of engine.stream("slow reader here", { voice: GEORGE })) {
      if (n++ === 0) await new Promise((r) => setTimeout(r, 500));
    }
    expect(n).toBeGreaterThan(2);
  });
});

describe("ElevenLabsEngine stops the request", () => {
  it("when the signal aborts mid-stream: the caller's reason is thrown, the fake sees the close", async () => {
    const { fake, engine } = await setup({ lineDelayMs: 100, charsPerLine: 5 });
    const ctl = new AbortController();
    const reason = new Error("barge-in");
    let got = 0;
    const run = (async () => {
      for await (const _ of engine.stream("a long sentence that takes a while to say", { voice: GEORGE, signal: ctl.signal })) {
        if (++got === 1) ctl.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    const req = fake.of("speech")[0];
    await req.finished;
    expect(req.closedEarly).toBe(true);
    expect(got).toBe(1);
  });

  it("when the signal aborts before the first byte", async () => {
    const { fake, engine } = await setup();
    fake.fault = "hang";
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const started = performance.now();
    await expect(engine.synthesize("hello", { voice: GEORGE, signal: ctl.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(performance.now() - started).toBeLessThan(1_000);
    await fake.of("speech")[0].finished;
  });

  it("when the signal is already aborted: no request at all", async () => {
    const { fake, engine } = await setup();
    const ctl = new AbortController();
    ctl.abort();
    await expect(engine.synthesize("hello", { voice: GEORGE, signal: ctl.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(fake.requests).toHaveLength(0);
  });

  it("when the consumer stops iterating", async () => {
    const { fake, engine } = await setup({ lineDelayMs: 100, charsPerLine: 5 });
    for await (const _ of engine.stream("a long sentence that takes a while to say", { voice: GEORGE })) break;
    const req = fake.of("speech")[0];
    await req.finished;
    expect(req.closedEarly).toBe(true);
  });
});

describe("voice ids are checked before any request", () => {
  const bad = ["../../v1/user", "a".repeat(10_000), "abc def", "", "voice?x=1", "%2e%2e", "a/b", "ünï"];
  it.each(bad.map((id) => [id.length > 20 ? `${id.slice(0, 10)}…(${id.length})` : JSON.stringify(id), id]))(
    "%s never reaches the fake",
    async (_label, id) => {
      const { fake, engine } = await setup();
      const err = await engine.synthesize("hello", { voice: id }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VoiceProviderError);
      expect(err).toMatchObject({ status: 404, retryable: false, failure: "refused" });
      expect((err as Error).message).toMatch(/ElevenLabs/);
      expect((err as Error).message.length).toBeLessThan(200);
      expect(fake.requests).toHaveLength(0);
    },
  );
});
