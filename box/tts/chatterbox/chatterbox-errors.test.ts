import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VoiceProviderError } from "../engine.ts";
import { ChatterboxEngine, type ChatterboxEngineOptions } from "./chatterbox-engine.ts";
import { detailOf } from "./chatterbox-http.ts";
import { FakeChatterbox } from "./testing/fake-chatterbox.ts";

let fake: FakeChatterbox;
const engine = (extra: Partial<ChatterboxEngineOptions> = {}) => new ChatterboxEngine({ baseUrl: fake.url, timeoutMs: 2_000, ...extra });
const speak = (e = engine(), voice = "Emily.wav") => e.synthesize("Hello there.", { voice });

async function failureOf(work: Promise<unknown> | (() => Promise<unknown>)): Promise<VoiceProviderError> {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (err) {
    expect(err).toBeInstanceOf(VoiceProviderError);
    return err as VoiceProviderError;
  }
  throw new Error("expected a failure");
}

async function drain(it: AsyncIterable<unknown>, onChunk: (n: number) => void = () => {}): Promise<void> {
  let n = 0;
  for await (const _ of it) onChunk(++n);
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

beforeEach(async () => {
  fake = await FakeChatterbox.start();
});
afterEach(async () => {
  await fake.close();
});

describe("chatterbox failures", () => {
  it("no server: unreachable, status 0, retryable, for every call", async () => {
    const url = fake.url;
    await fake.close();
    const e = new ChatterboxEngine({ baseUrl: url, timeoutMs: 2_000 });
    for (const call of [() => speak(e), () => e.voices(), () => e.modelInfo(), () => drain(e.stream("Hi.", { voice: "Emily.wav" }))]) {
      const err = await failureOf(call);
      expect(err).toMatchObject({ failure: "unreachable", status: 0, retryable: true });
      expect(err.message).toMatch(/^Chatterbox could not be reached at 127\.0\.0\.1:\d+ for the .+ \(ECONNREFUSED\)\.$/);
    }
  });

  it("a server that never answers: timed_out after timeoutMs", async () => {
    fake.set({ hang: true });
    const started = performance.now();
    const err = await failureOf(speak(engine({ timeoutMs: 300 })));
    expect(err).toMatchObject({
      failure: "timed_out",
      status: 0,
      retryable: true,
      message: "Chatterbox did not answer the speech request within 0.3 s.",
    });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("a slow list: timed_out for voices() and modelInfo()", async () => {
    fake.set({ latencyMs: 600 });
    const e = engine({ timeoutMs: 200 });
    expect(await failureOf(e.voices())).toMatchObject({ failure: "timed_out" });
    expect(await failureOf(e.modelInfo())).toMatchObject({
      failure: "timed_out",
      message: "Chatterbox did not answer the model-info request within 0.2 s.",
    });
  });

  it("a stream that stalls between blocks: timed_out after the audio so far", async () => {
    fake.set({ streamGapMs: 1_500 });
    let chunks = 0;
    const err = await failureOf(drain(engine({ timeoutMs: 300 }).stream("One. Two.", { voice: "Emily.wav" }), (n) => (chunks = n)));
    expect(chunks).toBeGreaterThanOrEqual(1);
    expect(err).toMatchObject({ failure: "timed_out", status: 0, message: "Chatterbox stopped sending the speech request for 0.3 s." });
  });

  it("a key refused by a proxy in front: key_problem, and the key is never in the message", async () => {
    await fake.close();
    fake = await FakeChatterbox.start({ apiKey: "right-key" });
    const none = await failureOf(speak());
    expect(none).toMatchObject({
      failure: "key_problem",
      status: 401,
      retryable: false,
      message: "Chatterbox asks for an API key for the speech request (HTTP 401) and none is set.",
    });
    const wrong = await failureOf(engine({ apiKey: "wrong-key-123" }).voices());
    expect(wrong).toMatchObject({ failure: "key_problem", status: 401 });
    expect(wrong.message).not.toContain("wrong-key-123");
    await expect(engine({ apiKey: "right-key" }).voices()).resolves.toHaveLength(4);
  });

  it("403: key_problem; a detail echoing the key is scrubbed", async () => {
    fake.set({ fail: { status: 403, detail: "Key sk-secret-9 is not allowed." } });
    const err = await failureOf(speak(engine({ apiKey: "sk-secret-9" })));
    expect(err).toMatchObject({
      failure: "key_problem",
      status: 403,
      message: "Chatterbox refused the API key for the speech request (HTTP 403: Key [key] is not allowed).",
    });
  });

  it("a deleted voice: 404 refused with the server's detail", async () => {
    fake.deleteVoice("Emily.wav").deleteVoice("Gianna.wav");
    expect(await failureOf(speak())).toMatchObject({
      failure: "refused",
      status: 404,
      retryable: false,
      message: "Chatterbox refused the speech request (HTTP 404: Predefined voice file 'Emily.wav' not found).",
    });
    expect((await failureOf(speak(engine(), "clone:Gianna.wav"))).message).toBe(
      "Chatterbox refused the speech request (HTTP 404: Reference audio file 'Gianna.wav' not found).",
    );
  });

  it("an invalid voice id: 404 refused before any request", async () => {
    for (const voice of ["../../etc/passwd", "clone:a/b.wav", "x\u0007.wav", "v".repeat(129)]) {
      expect(await failureOf(speak(engine(), voice))).toMatchObject({ failure: "refused", status: 404 });
      expect(await failureOf(engine().prepareVoice(voice))).toMatchObject({ status: 404 });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("500: refused, retryable, with the detail", async () => {
    fake.set({ fail: { detail: "Audio generation resulted in no output." } });
    expect(await failureOf(speak())).toMatchObject({
      failure: "refused",
      status: 500,
      retryable: true,
      message: "Chatterbox refused the speech request (HTTP 500: Audio generation resulted in no output).",
    });
    expect(await failureOf(engine().voices())).toMatchObject({ status: 500, failure: "refused" });
    expect(await failureOf(engine().prepareVoice("Emily.wav"))).toMatchObject({ status: 500 });
  });

  it("model not loaded: 503 refused and retryable, and the engine says it is not ready", async () => {
    fake.set({ modelLoaded: false });
    const e = engine();
    const err = await failureOf(speak(e));
    expect(err).toMatchObject({
      failure: "refused",
      status: 503,
      retryable: true,
      message: "Chatterbox refused the speech request (HTTP 503: TTS engine model is not currently loaded or available).",
    });
    expect(e.ready).toBe(false);
  });

  it("a 200 that is not WAV: refused, not retryable", async () => {
    fake.set({ garbage: true });
    expect(await failureOf(speak())).toMatchObject({
      failure: "refused",
      status: 502,
      retryable: false,
      message: "Chatterbox answered the speech request with something unusable (the answer is not a WAVE file).",
    });
    expect(await failureOf(drain(engine().stream("Hi.", { voice: "Emily.wav" })))).toMatchObject({ failure: "refused", status: 502 });
  });

  it("lists and model info that are not what the server sends: refused", async () => {
    const html = (async () =>
      new Response("<html>proxy login</html>", { status: 200, headers: { "content-type": "text/html" } })) as unknown as typeof fetch;
    const e = engine({ fetch: html });
    expect(await failureOf(e.voices())).toMatchObject({
      failure: "refused",
      message: "Chatterbox answered the voice list request with something unusable (it is not JSON).",
    });
    const odd = (async () => Response.json({ ok: true })) as unknown as typeof fetch;
    expect(await failureOf(engine({ fetch: odd }).modelInfo())).toMatchObject({
      failure: "refused",
      message: expect.stringContaining("no `loaded` field"),
    });
    expect(await failureOf(engine({ fetch: odd }).voices())).toMatchObject({
      failure: "refused",
      message: expect.stringContaining("not a list"),
    });
  });

  it("a connection closed mid-answer: refused and retryable, after the audio so far when streaming", async () => {
    fake.set({ closeMidResponse: true });
    expect(await failureOf(speak())).toMatchObject({
      failure: "refused",
      status: 502,
      retryable: true,
      message: "Chatterbox broke off the speech request before it was complete.",
    });
    let chunks = 0;
    const err = await failureOf(drain(engine().stream("A longer sentence to speak.", { voice: "Emily.wav" }), (n) => (chunks = n)));
    expect(err.message).toContain("broke off");
    expect(chunks).toBeGreaterThanOrEqual(1);
  });

  it("reads every FastAPI error shape", () => {
    expect(detailOf("{\"detail\":\"Missing 'predefined_voice_id' for 'predefined' voice mode.\"}")).toBe(
      "Missing 'predefined_voice_id' for 'predefined' voice mode",
    );
    expect(detailOf('{"detail":[{"type":"missing","loc":["body","text"],"msg":"Field required","input":null}]}')).toBe(
      "body.text: Field required",
    );
    expect(
      detailOf(
        '{"message":"Processed 1 file(s).","uploaded_files":[],"errors":[{"filename":"x.ogg","error":"Invalid file type. Only .wav and .mp3 are allowed."}]}',
      ),
    ).toBe("Invalid file type. Only .wav and .mp3 are allowed");
    expect(detailOf("<html><body>502 Bad Gateway</body></html>")).toBe("");
    expect(detailOf("upstream   connect\nerror")).toBe("upstream connect error");
    expect(detailOf("x".repeat(400))).toHaveLength(298);
  });
});

describe("chatterbox abort", () => {
  it("an aborted signal stops before any request, with the signal's reason", async () => {
    const ctl = new AbortController();
    ctl.abort();
    await expect(engine().synthesize("Hi.", { voice: "Emily.wav", signal: ctl.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(fake.requests).toHaveLength(0);
  });

  it("aborting while the server thinks rejects at once with the reason, not a timeout", async () => {
    fake.set({ hang: true });
    const ctl = new AbortController();
    const pending = engine({ timeoutMs: 5_000 }).synthesize("Hi.", { voice: "Emily.wav", signal: ctl.signal });
    await new Promise((r) => setTimeout(r, 100));
    const reason = new Error("caller hung up");
    ctl.abort(reason);
    await expect(within(pending, 1_000)).rejects.toBe(reason);
  });

  it("aborting a stream mid-way ends it with the reason and closes the connection", async () => {
    fake.set({ streamGapMs: 2_000 });
    const ctl = new AbortController();
    let chunks = 0;
    let caught: unknown;
    try {
      for await (const _ of engine().stream("First. Second. Third.", { voice: "Emily.wav", signal: ctl.signal })) {
        chunks++;
        ctl.abort();
      }
    } catch (err) {
      caught = err;
    }
    expect(chunks).toBe(1);
    expect(caught).toMatchObject({ name: "AbortError" });
    await within(fake.requests[0].closed, 1_000);
  });

  it("leaving a stream early closes the connection", async () => {
    fake.set({ streamGapMs: 2_000 });
    for await (const _ of engine().stream("First. Second.", { voice: "Emily.wav" })) break;
    await within(fake.requests[0].closed, 1_000);
  });
});
