// Every way Cartesia fails, through the fake over a real socket, mapped to VoiceProviderError:
// the catalogue state (`failure`), the provider's status, `retryable`, and a readable sentence
// that names Cartesia and never carries the key.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { VoiceProviderError } from "../engine.ts";
import { CartesiaEngine, type CartesiaEngineOptions } from "./cartesia-engine.ts";
import { errorDetail, httpFailure } from "./cartesia-errors.ts";
import { FAKE_CARTESIA_KEY, FAKE_VOICES, FakeCartesia, sleep, type FakeCartesiaMode } from "./testing/fake-cartesia.ts";

const KATIE = FAKE_VOICES[0].id;
let fake: FakeCartesia;
const seen: VoiceProviderError[] = [];

beforeAll(async () => {
  fake = await new FakeCartesia().listen();
});
afterAll(async () => {
  await fake.close();
  // No message of any failure in this file carries a key.
  for (const err of seen) {
    expect(err.message).not.toContain(FAKE_CARTESIA_KEY);
    expect(err.message).not.toContain("sk_car_wrong");
    expect(err.message).toMatch(/^Cartesia .*\.$/);
  }
});
beforeEach(() => fake.reset());

const engine = (o: Partial<CartesiaEngineOptions> = {}) =>
  new CartesiaEngine({ baseUrl: fake.url, apiKey: FAKE_CARTESIA_KEY, timeoutMs: 1500, defaultVoice: KATIE, ...o });

/** Runs the speech, returns the error and how much audio came before it. */
async function speechFailure(e: CartesiaEngine, text = "Hello there, how are you?", voice?: string) {
  let samples = 0;
  try {
    for await (const c of e.stream(text, { voice })) samples += c.pcm.length;
  } catch (err) {
    expect(err).toBeInstanceOf(VoiceProviderError);
    seen.push(err as VoiceProviderError);
    return { err: err as VoiceProviderError, samples };
  }
  throw new Error("expected a failure");
}

async function withMode(mode: FakeCartesiaMode, e = engine()) {
  fake.mode = mode;
  return speechFailure(e);
}

describe("HTTP refusals (docs/providers.md 2.8)", () => {
  it("a wrong key is key_problem 401, not retryable, with Cartesia's words and never the key", async () => {
    const { err } = await speechFailure(engine({ apiKey: "sk_car_wrong" }));
    expect(err).toMatchObject({ status: 401, retryable: false, failure: "key_problem" });
    expect(err.message).toBe("Cartesia refused the speech request: the API key was refused (401: Unauthorized: Invalid API key).");
  });

  it("reads the older plain-text bodies too (versions before 2026-03-01)", async () => {
    const { err } = await speechFailure(engine({ apiKey: "sk_car_wrong", version: "2024-11-13" }));
    expect(err).toMatchObject({ status: 401, failure: "key_problem" });
    expect(err.message).toContain("(401: Unauthorized: Invalid API key)");
  });

  it("no key at all is key_problem with no request", async () => {
    const { err } = await speechFailure(engine({ apiKey: undefined }));
    expect(err).toMatchObject({ status: 0, retryable: false, failure: "key_problem" });
    expect(err.message).toBe("Cartesia needs an API key and none is configured.");
    expect(fake.requests).toHaveLength(0);
  });

  it("a key no header can carry is key_problem with no request, and is not quoted", async () => {
    const { err } = await speechFailure(engine({ apiKey: "sk_car_wrong zzqq\u00e9" }));
    expect(err).toMatchObject({ status: 0, retryable: false, failure: "key_problem" });
    expect(err.message).not.toContain("zzqq");
    expect(fake.requests).toHaveLength(0);
  });

  it("403 is key_problem; 402 (out of credits) is key_problem", async () => {
    expect((await withMode({ fail: 403 })).err).toMatchObject({ status: 403, retryable: false, failure: "key_problem" });
    const credits = (await withMode({ fail: 402 })).err;
    expect(credits).toMatchObject({ status: 402, retryable: false, failure: "key_problem" });
    expect(credits.message).toMatch(
      /^Cartesia refused the speech request: the account is out of credits or over its quota \(402: Payment Required: You have run out of credits/,
    );
  });

  it("429 is refused and retryable", async () => {
    const { err } = await withMode({ fail: 429 });
    expect(err).toMatchObject({ status: 429, retryable: true, failure: "refused" });
    expect(err.message).toBe(
      "Cartesia is busy: too many requests or streams at once on this account (429: Too many concurrent requests: You have exceeded your plan's concurrency limit).",
    );
  });

  it("5xx is refused and retryable", async () => {
    for (const fail of [500, 503] as const) {
      const { err } = await withMode({ fail });
      expect(err).toMatchObject({ status: fail, retryable: true, failure: "refused" });
      expect(err.message).toMatch(/^Cartesia had a server error answering the speech request \(5\d\d: /);
    }
  });

  it("a deleted voice is 404 refused (the box's unknown_voice), naming the voice", async () => {
    fake.mode = { deleted: [KATIE] };
    const { err } = await speechFailure(engine());
    expect(err).toMatchObject({ status: 404, retryable: false, failure: "refused" });
    expect(err.message).toMatch(new RegExp(`^Cartesia has no voice "${KATIE}" on this account; it may have been deleted \\(404: `));
  });

  it("quota words in a body count as key_problem whatever the 4xx; other 4xx are plain refusals", () => {
    const quota = httpFailure(
      429,
      JSON.stringify({ error_code: "quota_exceeded", title: "Quota exceeded", message: "Monthly characters used up." }),
      { kind: "voices" },
    );
    expect(quota).toMatchObject({ status: 429, failure: "key_problem", retryable: false });
    const bad = httpFailure(400, "Bad Request: transcript is required", { kind: "speech", voiceId: "v" });
    expect(bad).toMatchObject({
      status: 400,
      failure: "refused",
      retryable: false,
      message: "Cartesia refused the speech request (400: Bad Request: transcript is required).",
    });
    expect(httpFailure(401, `Invalid key ${FAKE_CARTESIA_KEY}`, { kind: "key" }, FAKE_CARTESIA_KEY).message).not.toContain(
      FAKE_CARTESIA_KEY,
    );
    expect(errorDetail('{"error_code":null,"title":"T","message":"M","request_id":"r"}')).toEqual({ code: "", text: "T: M" });
    expect(errorDetail("Title: Message")).toEqual({ code: "", text: "Title: Message" });
  });
});

describe("broken answers (garbage)", () => {
  const cases: Array<[FakeCartesiaMode["garbage"], RegExp]> = [
    ["html", /could not be read: it is text\/html, not an event stream \(<html><body>Welcome to nginx!/],
    ["bad-json", /could not be read: an event is not Cartesia's JSON \(\{"type":"chunk","data":\)/],
    ["no-audio", /could not be read: the stream finished without any audio\.$/],
    ["bad-base64", /could not be read: an audio chunk is not base64\.$/],
    ["no-events", /could not be read: it carried no events\.$/],
  ];
  for (const [garbage, message] of cases) {
    it(`${garbage}: refused with a readable sentence`, async () => {
      const { err } = await withMode({ garbage });
      expect(err).toMatchObject({ status: 502, retryable: false, failure: "refused" });
      expect(err.message).toMatch(/^Cartesia sent an answer to the speech request that could not be read: /);
      expect(err.message).toMatch(message);
    });
  }
});

describe("streams cut short", () => {
  it("an SSE error event after audio: refused, retryable, saying the stream was cut, after the audio already given", async () => {
    const { err, samples } = await withMode({ errorAfterChunks: 3, chunkMs: 100 });
    expect(samples).toBe(3 * 2400);
    expect(err).toMatchObject({ status: 502, retryable: true, failure: "refused" });
    expect(err.message).toBe(
      "Cartesia cut the speech stream after 300 ms of audio: it sent an error event (500): Generation failed: The model stopped unexpectedly.",
    );
  });

  it("an SSE error event before any audio counts as the refusal it names", async () => {
    const { err, samples } = await withMode({ errorAfterChunks: 0 });
    expect(samples).toBe(0);
    expect(err).toMatchObject({ status: 500, retryable: true, failure: "refused" });
  });

  it("the connection closed mid-stream: refused, retryable, saying the stream was cut", async () => {
    const { err, samples } = await withMode({ closeAfterChunks: 2, chunkMs: 100 });
    expect(samples).toBe(2 * 2400);
    expect(err).toMatchObject({ status: 502, retryable: true, failure: "refused" });
    expect(err.message).toBe("Cartesia cut the speech stream after 200 ms of audio: the connection closed before the stream was complete.");
  });
});

describe("no answer", () => {
  it("nothing listening: unreachable, status 0, retryable", async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const { err } = await speechFailure(engine({ baseUrl: `http://127.0.0.1:${port}` }));
    expect(err).toMatchObject({ status: 0, retryable: true, failure: "unreachable" });
    expect(err.message).toMatch(new RegExp(`^Cartesia could not be reached at http://127\\.0\\.0\\.1:${port} \\(`));
  });

  it("no first byte within timeoutMs: timed_out", async () => {
    const started = performance.now();
    const { err } = await withMode({ hang: true }, engine({ timeoutMs: 300 }));
    const took = performance.now() - started;
    expect(err).toMatchObject({ status: 0, retryable: true, failure: "timed_out" });
    expect(err.message).toBe("Cartesia did not answer the speech request within 0.3 s.");
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(1500);
  });

  it("added latency under the limit is fine; over it times out", async () => {
    fake.mode = { latencyMs: 100 };
    expect((await engine({ timeoutMs: 600 }).synthesize("Fine.")).pcm.length).toBe(5 * 1440);
    const { err } = await withMode({ latencyMs: 700 }, engine({ timeoutMs: 250 }));
    expect(err.failure).toBe("timed_out");
  });

  it("a stream that stalls after some audio: timed_out, saying it stalled", async () => {
    const { err, samples } = await withMode({ stallAfterChunks: 2, chunkMs: 100 }, engine({ timeoutMs: 300 }));
    expect(samples).toBe(2 * 2400);
    expect(err).toMatchObject({ status: 0, retryable: true, failure: "timed_out" });
    expect(err.message).toBe("Cartesia stalled for 0.3 s in the middle of the speech request.");
  });

  it("headers but no event within timeoutMs: timed_out as no answer, not a stall", async () => {
    const { err, samples } = await withMode({ stallAfterChunks: 0 }, engine({ timeoutMs: 250 }));
    expect(samples).toBe(0);
    expect(err).toMatchObject({ failure: "timed_out", message: "Cartesia did not answer the speech request within 0.3 s." });
  });

  it("a slow consumer is not a stalled provider", async () => {
    fake.mode = { chunkMs: 500 };
    let chunks = 0;
    for await (const c of engine({ timeoutMs: 150 }).stream("Slow reader.")) {
      if (c.pcm.length > 0) chunks++;
      await sleep(200);
    }
    expect(chunks).toBe(2);
  });
});
