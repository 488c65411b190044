import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { VoiceProviderError, type UtteranceChunk } from "../engine.ts";
import { ElevenLabsEngine } from "./elevenlabs-engine.ts";
import { FakeElevenLabs, type FakeFault } from "./testing/fake-elevenlabs.ts";
import { GEORGE } from "./testing/fake-voices.ts";

const KEY = "sk_secret_key_9f8e7d6c5b4a";
let fake: FakeElevenLabs | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function setup(timeoutMs = 2_000) {
  fake = await FakeElevenLabs.start({ apiKey: KEY, scopedKey: "sk_scoped", charsPerLine: 5 });
  return { fake, engine: new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY, timeoutMs }) };
}

/** Runs the stream; the error it ends with and how many chunks came before it. */
async function failureOf(engine: ElevenLabsEngine, voice = GEORGE): Promise<{ err: VoiceProviderError; chunks: UtteranceChunk[] }> {
  const chunks: UtteranceChunk[] = [];
  try {
    for await (const c of engine.stream("Hello there, how are you today?", { voice })) chunks.push(c);
  } catch (err) {
    expect(err).toBeInstanceOf(VoiceProviderError);
    const e = err as VoiceProviderError;
    expect(e.message).toMatch(/ElevenLabs/);
    expect(e.message).not.toContain(KEY);
    expect(e.message).not.toMatch(/<html|\n/);
    return { err: e, chunks };
  }
  throw new Error("the stream did not fail");
}

describe("speech failures map to the catalogue states (docs/providers.md 1.7)", () => {
  const cases: [FakeFault, number, boolean, VoiceProviderError["failure"], RegExp][] = [
    ["invalid_key", 401, false, "key_problem", /invalid/],
    ["quota_exceeded", 401, false, "key_problem", /credits are used up.*exceeds your quota/],
    ["unusual_activity", 401, false, "key_problem", /unusual activity/],
    ["missing_permissions", 401, false, "key_problem", /lacks a permission.*text_to_speech/],
    ["quota_429", 429, false, "key_problem", /credits/],
    ["too_many_concurrent", 429, true, "refused", /concurrent requests/],
    ["system_busy", 429, true, "refused", /busy/],
    ["server_error", 500, true, "refused", /HTTP 500/],
    ["proxy_502", 502, true, "refused", /HTTP 502/],
    ["route_missing", 502, false, "refused", /base URL/],
    ["garbage", 502, false, "refused", /not JSON/],
    ["missing_audio", 502, false, "refused", /no audio_base64/],
  ];
  it.each(cases)("%s → %i %s %s", async (fault, status, retryable, failure, message) => {
    const { fake, engine } = await setup();
    fake.fault = fault;
    const { err } = await failureOf(engine);
    expect(err).toMatchObject({ status, retryable, failure });
    expect(err.message).toMatch(message);
  });

  it("a wrong key gets the real 401 invalid_api_key → key_problem", async () => {
    const { fake } = await setup();
    const engine = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: "sk_wrong" });
    const { err } = await failureOf(engine);
    expect(err).toMatchObject({ status: 401, retryable: false, failure: "key_problem" });
  });

  it("no key at all → key_problem, nothing sent", async () => {
    const { fake } = await setup();
    const engine = new ElevenLabsEngine({ baseUrl: fake.url });
    const { err } = await failureOf(engine);
    expect(err).toMatchObject({ status: 401, failure: "key_problem" });
    expect(fake.requests).toHaveLength(0);
  });

  it("a deleted voice → 404 refused, naming the voice (the box answers unknown_voice)", async () => {
    const { fake, engine } = await setup();
    fake.deleteVoice(GEORGE);
    const { err } = await failureOf(engine);
    expect(err).toMatchObject({ status: 404, retryable: false, failure: "refused" });
    expect(err.message).toContain(GEORGE);
  });

  it("a socket closed mid-stream → refused, retryable, after the first chunk", async () => {
    const { fake, engine } = await setup();
    fake.fault = "cut";
    const { err, chunks } = await failureOf(engine);
    expect(chunks.length).toBeGreaterThan(0);
    expect(err).toMatchObject({ status: 502, retryable: true, failure: "refused" });
    expect(err.message).toMatch(/cut the speech stream off/);
  });

  it("no connection → unreachable, status 0", async () => {
    const port = await closedPort();
    const engine = new ElevenLabsEngine({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY });
    const { err } = await failureOf(engine);
    expect(err).toMatchObject({ status: 0, retryable: true, failure: "unreachable" });
    expect(err.message).toMatch(/could not be reached at 127\.0\.0\.1/);
  });

  it("no answer within timeoutMs → timed_out", async () => {
    const { fake, engine } = await setup(300);
    fake.fault = "hang";
    const started = performance.now();
    const { err } = await failureOf(engine);
    expect(err).toMatchObject({ status: 0, retryable: true, failure: "timed_out" });
    expect(err.message).toMatch(/did not answer the speech request within 0\.3 s/);
    expect(performance.now() - started).toBeLessThan(1_500);
    await fake.of("speech")[0].finished; // the request was given up
  });

  it("headers but no first byte within timeoutMs → timed_out", async () => {
    const { fake, engine } = await setup(300);
    fake.fault = "hang_after_headers";
    const { err } = await failureOf(engine);
    expect(err).toMatchObject({ failure: "timed_out" });
    expect(err.message).toMatch(/did not answer/);
  });

  it("a stream that stalls after the first line → timed_out", async () => {
    const { fake, engine } = await setup(300);
    fake.fault = "stall";
    const { err, chunks } = await failureOf(engine);
    expect(chunks.length).toBeGreaterThan(0);
    expect(err).toMatchObject({ status: 0, retryable: true, failure: "timed_out" });
    expect(err.message).toMatch(/stopped sending/);
    const req = fake.of("speech")[0];
    await req.finished;
    expect(req.closedEarly).toBe(true);
  });

  it("added latency under the limit is fine", async () => {
    fake = await FakeElevenLabs.start({ apiKey: KEY, latencyMs: 150 });
    const engine = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY, timeoutMs: 1_000 });
    const u = await engine.synthesize("fine", { voice: GEORGE });
    expect(u.pcm.length).toBe(4 * 1440);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
