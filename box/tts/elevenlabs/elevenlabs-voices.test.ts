import { afterEach, describe, expect, it } from "vitest";
import { VoiceProviderError } from "../engine.ts";
import { voiceForLanguage } from "../voice-language.ts";
import { ElevenLabsEngine, type ElevenLabsEngineOptions } from "./elevenlabs-engine.ts";
import { ElevenLabsError } from "./elevenlabs-errors.ts";
import { MODEL_LANGUAGES } from "./elevenlabs-voices.ts";
import { FakeElevenLabs, type FakeElevenLabsOptions } from "./testing/fake-elevenlabs.ts";
import { ADAM, CLONED, GEORGE, LUCIA, manyFakeVoices, RACHEL } from "./testing/fake-voices.ts";

const KEY = "sk_voices_key_abcdef";
let fake: FakeElevenLabs | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function setup(fakeOptions: Partial<FakeElevenLabsOptions> = {}, engineOptions: Partial<ElevenLabsEngineOptions> = {}) {
  fake = await FakeElevenLabs.start({ apiKey: KEY, scopedKey: "sk_scoped", ...fakeOptions });
  return { fake, engine: new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY, timeoutMs: 2_000, ...engineOptions }) };
}

const ROW_FIELDS = ["provider", "id", "name", "language", "gender", "description", "languages", "category", "accent", "age"];

describe("ElevenLabsEngine.voices", () => {
  it("maps voices to catalogue rows: language a tag, never a country; no sample URL, timestamp or model id", async () => {
    const { fake, engine } = await setup();
    const rows = await engine.voices();
    const req = fake.of("voices")[0];
    expect(req.path).toBe("/v2/voices");
    expect(req.headers["xi-api-key"]).toBe(KEY);
    expect(Object.fromEntries(req.query)).toEqual({ page_size: "100", include_total_count: "false" });

    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(rows.map((r) => r.id)).toEqual([GEORGE, RACHEL, LUCIA, CLONED, ADAM]);
    expect(byId[GEORGE]).toMatchObject({
      provider: "elevenlabs",
      name: "George",
      language: "en-gb",
      gender: "male",
      accent: "british",
      age: "middle-aged",
      category: "premade",
      description: "British, middle-aged, warm voice for narration",
    });
    expect(byId[RACHEL]).toMatchObject({ language: "en-us", gender: "female", description: "A warm, expressive voice." });
    // Verified on the engine's model (flash v2.5) first: es-MX over es-ES.
    expect(byId[LUCIA]).toMatchObject({ language: "es-mx", gender: "female" });
    expect(byId[LUCIA].languages.slice(0, 2)).toEqual(["es-mx", "pt-br"]);
    expect(byId[CLONED]).toMatchObject({ language: "en", gender: "", description: "ElevenLabs voice", category: "cloned" });
    expect(byId[ADAM]).toMatchObject({ language: "en-us", accent: "american" });

    for (const row of rows) {
      expect(Object.keys(row).every((k) => ROW_FIELDS.includes(k))).toBe(true);
      expect(row.language).toMatch(/^[a-z]{2,3}(-[a-z0-9]+)*$/);
      expect(JSON.stringify(row)).not.toMatch(/https?:|eleven_|preview|created_at/);
      // flash v2.5 speaks 32 languages, each listed once (by primary subtag)
      expect(row.languages).toHaveLength(MODEL_LANGUAGES.eleven_flash_v2_5.length);
      expect(row.languages[0]).toBe(row.language);
    }
  });

  it("an English-only model gives English-only rows; the language rule finds a Spanish speaker", async () => {
    const { engine } = await setup({}, { modelId: "eleven_turbo_v2" });
    const rows = await engine.voices();
    expect(rows.find((r) => r.id === GEORGE)!.languages).toEqual(["en-gb"]);
    expect(voiceForLanguage(rows, "es", GEORGE)?.id).toBe(LUCIA);
  });

  it("fetches every page", async () => {
    const { fake, engine } = await setup({ voices: manyFakeVoices(230) });
    const rows = await engine.voices();
    expect(rows).toHaveLength(230);
    const pages = fake.of("voices");
    expect(pages).toHaveLength(3);
    expect(pages[0].query.get("next_page_token")).toBeNull();
    expect(pages[1].query.get("next_page_token")).toBeTruthy();
    expect(pages.every((p) => p.query.get("page_size") === "100")).toBe(true);
  });

  it("stops at maxVoicePages", async () => {
    const { fake, engine } = await setup({ voices: manyFakeVoices(230) }, { maxVoicePages: 2 });
    expect(await engine.voices()).toHaveLength(200);
    expect(fake.of("voices")).toHaveLength(2);
  });

  it("failures: bad key → key_problem; scoped key → key_problem with code missing_permissions; hang → timed_out; garbage → refused", async () => {
    const { fake, engine } = await setup({}, { timeoutMs: 300 });
    const bad = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: "sk_bad" });
    await expect(bad.voices()).rejects.toMatchObject({ failure: "key_problem", status: 401 });
    const scoped = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: "sk_scoped" });
    const err = await scoped.voices().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ElevenLabsError);
    expect(err).toMatchObject({ failure: "key_problem", code: "missing_permissions" });
    expect((err as Error).message).toMatch(/voices_read/);

    fake.fault = "hang";
    await expect(engine.voices()).rejects.toMatchObject({ failure: "timed_out", status: 0 });
    fake.fault = "stall";
    await expect(engine.voices()).rejects.toMatchObject({ failure: "timed_out" });
    fake.fault = "garbage";
    await expect(engine.voices()).rejects.toMatchObject({ failure: "refused", message: expect.stringMatching(/no voices list/) });
    fake.fault = "cut";
    await expect(engine.voices()).rejects.toMatchObject({ failure: "refused", retryable: true });
    fake.fault = "system_busy";
    await expect(engine.voices()).rejects.toMatchObject({ failure: "refused", status: 429, retryable: true });
    fake.fault = "route_missing";
    await expect(engine.voices()).rejects.toMatchObject({ failure: "refused", status: 502 });
  });
});

describe("ElevenLabsEngine.checkKey (GET /v1/user)", () => {
  it("a good key resolves; a scoped key without user_read is still valid", async () => {
    const { fake, engine } = await setup();
    await expect(engine.checkKey()).resolves.toEqual({ restricted: false });
    expect(fake.of("user")[0].headers["xi-api-key"]).toBe(KEY);
    const scoped = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: "sk_scoped" });
    await expect(scoped.checkKey()).resolves.toEqual({ restricted: true });
  });

  it("a bad or exhausted key throws key_problem; other failures keep their own state", async () => {
    const { fake, engine } = await setup({}, { timeoutMs: 300 });
    const bad = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: "sk_bad" });
    const err = await bad.checkKey().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VoiceProviderError);
    expect(err).toMatchObject({ failure: "key_problem", status: 401, retryable: false });
    expect((err as Error).message).not.toContain("sk_bad");
    fake.fault = "quota_exceeded";
    await expect(engine.checkKey()).rejects.toMatchObject({ failure: "key_problem" });
    fake.fault = "server_error";
    await expect(engine.checkKey()).rejects.toMatchObject({ failure: "refused", status: 500, retryable: true });
    fake.fault = "hang";
    await expect(engine.checkKey()).rejects.toMatchObject({ failure: "timed_out" });
    await expect(new ElevenLabsEngine({ baseUrl: fake.url }).checkKey()).rejects.toMatchObject({ failure: "key_problem" });
  });

  it("carries the engine's info for the catalogue", () => {
    expect(new ElevenLabsEngine({ apiKey: "k" }).info).toEqual({
      label: "ElevenLabs",
      local: false,
      byo: true,
      clone: false,
      prepare: false,
    });
    expect(new ElevenLabsEngine({ apiKey: "k" }).id).toBe("elevenlabs");
  });
});
