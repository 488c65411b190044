// The Cartesia voices list (cursor pages, rows for the catalogue), the key check, the fake's own
// protocol checks, and the pure wire helpers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { VoiceProviderError } from "../engine.ts";
import { CartesiaEngine, type CartesiaEngineOptions } from "./cartesia-engine.ts";
import { languageTag, modelLanguages, PcmAssembler, wordsOf } from "./cartesia-wire.ts";
import { FAKE_CARTESIA_KEY, FAKE_VOICES, FakeCartesia, type FakeVoice } from "./testing/fake-cartesia.ts";

let fake: FakeCartesia;

beforeAll(async () => {
  fake = await new FakeCartesia().listen();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.voices = FAKE_VOICES.slice();
});

const engine = (o: Partial<CartesiaEngineOptions> = {}) =>
  new CartesiaEngine({ baseUrl: fake.url, apiKey: FAKE_CARTESIA_KEY, timeoutMs: 1000, ...o });

async function failure(p: Promise<unknown>): Promise<VoiceProviderError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(VoiceProviderError);
    expect((err as Error).message).not.toContain(FAKE_CARTESIA_KEY);
    return err as VoiceProviderError;
  }
  throw new Error("expected a failure");
}

const many = (n: number): FakeVoice[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `voice-${String(i).padStart(4, "0")}`,
    name: `Voice ${i}`,
    description: "",
    language: "en",
    gender: "feminine",
  }));

describe("CartesiaEngine.voices", () => {
  it("maps each voice to a catalogue row: language tag, lowercase gender or empty, what the model speaks", async () => {
    const rows = await engine().voices();
    expect(rows).toHaveLength(3);
    const [katie, pedro, nova] = rows;
    expect(katie).toEqual({
      provider: "cartesia",
      id: FAKE_VOICES[0].id,
      name: "Katie",
      language: "en",
      gender: "feminine",
      description: "Friendly narrator",
      languages: modelLanguages("sonic-3"),
      is_owner: false,
      is_public: true,
    });
    expect(pedro).toMatchObject({ language: "es", gender: "masculine", description: "Calm reader" });
    expect(pedro.languages[0]).toBe("es");
    expect(pedro.languages).toHaveLength(42);
    expect(new Set(pedro.languages).size).toBe(42);
    expect(nova).toMatchObject({ name: "Nova", language: "fr", gender: "", description: "", is_owner: true });
    for (const row of rows) {
      for (const field of ["preview_file_url", "created_at", "country", "model_id", "embedding"]) expect(row).not.toHaveProperty(field);
      for (const tag of row.languages) expect(tag).toMatch(/^[a-z]{2}$/);
    }
    const [req] = fake.requests;
    expect(req.path).toBe("/voices");
    expect(req.query.get("limit")).toBe("100");
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_CARTESIA_KEY}`);
    expect(req.headers["cartesia-version"]).toBe("2026-03-01");
  });

  it("gives a sonic-2 engine's rows that model's 15 languages", async () => {
    const rows = await engine({ model: "sonic-2" }).voices();
    expect(rows[0].languages).toEqual(modelLanguages("sonic-2"));
    expect(rows[0].languages).toHaveLength(15);
    expect(rows[2].languages[0]).toBe("fr");
  });

  it("follows the cursor pages with starting_after=<last id>", async () => {
    fake.voices = many(250);
    const rows = await engine().voices();
    expect(rows.map((r) => r.id)).toEqual(fake.voices.map((v) => v.id));
    expect(fake.requests.map((r) => [r.query.get("limit"), r.query.get("starting_after")])).toEqual([
      ["100", null],
      ["100", "voice-0099"],
      ["100", "voice-0199"],
    ]);
  });

  it("stops at maxVoices", async () => {
    fake.voices = many(250);
    const rows = await engine({ maxVoices: 150 }).voices();
    expect(rows).toHaveLength(150);
    expect(fake.requests.map((r) => r.query.get("limit"))).toEqual(["100", "50"]);
  });

  it("stops when a server's cursor does not move", async () => {
    let calls = 0;
    const stuck = (async () => {
      calls++;
      return new Response(
        JSON.stringify({ data: [{ id: "same", name: "Same", language: "en", description: "" }], has_more: true, next_page: "same" }),
        {
          headers: { "content-type": "application/json" },
        },
      );
    }) as unknown as typeof fetch;
    const rows = await engine({ fetch: stuck }).voices();
    expect(rows.map((r) => r.id)).toEqual(["same"]);
    expect(calls).toBe(2);
  });

  it("maps failures like speech does", async () => {
    expect(await failure(engine({ apiKey: "sk_car_wrong" }).voices())).toMatchObject({ status: 401, failure: "key_problem" });
    fake.mode = { fail: 500 };
    const err = await failure(engine().voices());
    expect(err).toMatchObject({ status: 500, retryable: true, failure: "refused" });
    expect(err.message).toMatch(/^Cartesia had a server error answering the voices list \(500: /);
    fake.mode = { hang: true };
    expect(await failure(engine({ timeoutMs: 200 }).voices())).toMatchObject({
      failure: "timed_out",
      message: "Cartesia did not answer the voices list within 0.2 s.",
    });
  });

  it("refuses an answer that is not a voices page", async () => {
    const answer = (body: string) =>
      engine({
        fetch: (async () => new Response(body, { headers: { "content-type": "application/json" } })) as unknown as typeof fetch,
      }).voices();
    expect(await failure(answer("<html>"))).toMatchObject({
      status: 502,
      failure: "refused",
      message: "Cartesia sent an answer to the voices list that could not be read: it is not JSON.",
    });
    expect((await failure(answer('{"voices":[]}'))).message).toMatch(/it has no list of voices\.$/);
  });
});

describe("CartesiaEngine.checkKey (GET /voices?limit=1)", () => {
  it("resolves for an accepted key", async () => {
    await expect(engine().checkKey()).resolves.toEqual({ restricted: false });
    const [req] = fake.requests;
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/voices");
    expect(req.query.get("limit")).toBe("1");
    expect(req.headers["cartesia-version"]).toBe("2026-03-01");
  });

  it("a refused or exhausted key is key_problem; busy and broken are refused; silence is timed_out", async () => {
    expect(await failure(engine({ apiKey: "sk_car_wrong" }).checkKey())).toMatchObject({
      status: 401,
      failure: "key_problem",
      message: "Cartesia refused the key check: the API key was refused (401: Unauthorized: Invalid API key).",
    });
    fake.mode = { fail: 402 };
    expect(await failure(engine().checkKey())).toMatchObject({ status: 402, failure: "key_problem" });
    fake.mode = { fail: 429 };
    expect(await failure(engine().checkKey())).toMatchObject({ status: 429, retryable: true, failure: "refused" });
    fake.mode = { hang: true };
    expect(await failure(engine({ timeoutMs: 150 }).checkKey())).toMatchObject({ failure: "timed_out" });
  });
});

describe("the fake speaks Cartesia's protocol", () => {
  it("accepts X-API-Key as well as Bearer, requires the version header, and answers GET / without auth", async () => {
    const xKey = await fetch(`${fake.url}/voices?limit=1`, {
      headers: { "X-API-Key": FAKE_CARTESIA_KEY, "Cartesia-Version": "2024-11-13" },
    });
    expect(xKey.status).toBe(200);
    expect((await xKey.json()).data).toHaveLength(1);
    const noVersion = await fetch(`${fake.url}/voices`, { headers: { authorization: `Bearer ${FAKE_CARTESIA_KEY}` } });
    expect(noVersion.status).toBe(400);
    expect(await (await fetch(`${fake.url}/`)).json()).toEqual({ ok: true, version: "2026-03-01" });
    const one = await fetch(`${fake.url}/voices/${FAKE_VOICES[1].id}`, {
      headers: { "X-API-Key": FAKE_CARTESIA_KEY, "Cartesia-Version": "2026-03-01" },
    });
    expect((await one.json()).name).toBe("Pedro");
  });

  it("refuses SSE output that is not raw, with the JSON error body", async () => {
    const res = await fetch(`${fake.url}/tts/sse`, {
      method: "POST",
      headers: { authorization: `Bearer ${FAKE_CARTESIA_KEY}`, "cartesia-version": "2026-03-01", "content-type": "application/json" },
      body: JSON.stringify({
        model_id: "sonic-3",
        transcript: "Hi",
        voice: { mode: "id", id: FAKE_VOICES[0].id },
        output_format: { container: "wav", encoding: "pcm_s16le", sample_rate: 24000 },
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: null, title: "Bad Request", message: "SSE output_format.container must be raw" });
  });
});

describe("wire helpers", () => {
  it("PcmAssembler keeps an odd byte for the next chunk and refuses non-base64", () => {
    const a = new PcmAssembler();
    const bytes = Buffer.from([0x01, 0x00, 0xff, 0xff, 0x00]);
    expect(Array.from(a.push(bytes.subarray(0, 3).toString("base64"))!)).toEqual([1]);
    expect(Array.from(a.push(bytes.subarray(3).toString("base64"))!)).toEqual([-1]);
    expect(a.push("not base64!")).toBeNull();
    expect(a.push("")!.length).toBe(0);
  });

  it("wordsOf converts seconds to ms and skips broken entries", () => {
    expect(wordsOf({ words: ["a", "b", 3, "d"], start: [0, 0.5, 1, "x"], end: [0.25, 0.75, 1.2, 2] })).toEqual([
      { text: "a", startMs: 0, endMs: 250 },
      { text: "b", startMs: 500, endMs: 750 },
    ]);
    expect(wordsOf({ words: "a", start: [], end: [] })).toEqual([]);
  });

  it("languageTag and modelLanguages", () => {
    expect(languageTag("pt_BR")).toBe("pt-br");
    expect(languageTag(null)).toBe("");
    expect(modelLanguages("sonic-3-2026-01-12")).toHaveLength(42);
    expect(modelLanguages("sonic-3.5")).toHaveLength(42);
    expect(modelLanguages("sonic-turbo")).toHaveLength(15);
    expect(modelLanguages("sonic")).toHaveLength(15);
    expect(modelLanguages("mystery")).toEqual([]);
    for (const lang of ["en", "es", "fr", "de", "it", "pt", "hi", "ja"]) {
      expect(modelLanguages("sonic-3")).toContain(lang);
      expect(modelLanguages("sonic-2")).toContain(lang);
    }
  });
});
