import { beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { LANGUAGES } from "../../shared/wire/tones.ts";
import type { Utterance } from "./engine.ts";
import { EspeakEngine } from "./espeak-engine.ts";

const SENTENCE = "Hello world, this is a short test of the voice engine.";

// One sentence per call language; Japanese in kana (espeak reads kanji as English letter names).
const SAMPLES: Record<(typeof LANGUAGES)[number], string> = {
  en: "Good morning, how are you?",
  es: "Buenos días, ¿cómo estás?",
  fr: "Bonjour, comment allez-vous?",
  de: "Guten Morgen, wie geht es dir?",
  it: "Buongiorno, come stai?",
  pt: "Bom dia, como vai você?",
  hi: "नमस्ते, आप कैसे हैं?",
  ja: "こんにちは、おげんきですか。",
};

function peak(pcm: Int16Array): number {
  let p = 0;
  for (const s of pcm) p = Math.max(p, Math.abs(s));
  return p;
}

function expectTimedSpeech(u: Utterance): void {
  expect(u.sampleRate).toBe(22050);
  expect(u.pcm.length).toBeGreaterThan(22050 * 0.5);
  expect(peak(u.pcm)).toBeGreaterThan(3000);
  expect(u.durationMs).toBeCloseTo((u.pcm.length / 22050) * 1000, 6);
  expect(u.phonemes.length).toBeGreaterThan(3);
  for (let i = 0; i < u.phonemes.length; i++) {
    const p = u.phonemes[i];
    expect(p.phoneme).not.toBe("");
    expect(p.phoneme).not.toMatch(/[ˈˌ()]/);
    expect(p.startMs).toBeGreaterThanOrEqual(0);
    expect(p.endMs).toBeGreaterThan(p.startMs);
    expect(p.endMs).toBeLessThanOrEqual(u.durationMs);
    if (i > 0) expect(p.startMs).toBeGreaterThanOrEqual(u.phonemes[i - 1].endMs);
  }
  expect(u.words.length).toBeGreaterThan(0);
  for (const w of u.words) {
    expect(w.endMs).toBeGreaterThanOrEqual(w.startMs);
    expect(w.endMs).toBeLessThanOrEqual(u.durationMs);
  }
}

describe("EspeakEngine (native library)", () => {
  let engine: EspeakEngine;
  beforeAll(async () => {
    engine = await EspeakEngine.load({ backend: "native" });
  });

  it("synthesises a sentence to non-silent 22050 Hz PCM with ordered phoneme and word timings", async () => {
    const u = await engine.synthesize(SENTENCE);
    expect(engine.backend).toBe("native");
    expect(engine.ready).toBe(true);
    expectTimedSpeech(u);
    // espeak may join short function words ("of the") into one word event; the rest are in order.
    const texts = u.words.map((w) => w.text);
    expect(texts).toEqual(expect.arrayContaining(["Hello", "world", "short", "test", "voice", "engine"]));
    let from = 0;
    for (const t of texts) {
      const at = SENTENCE.indexOf(t!, from);
      expect(at, t).toBeGreaterThanOrEqual(0);
      from = at + t!.length;
    }
    // The first word's sounds are /h/ ... and the phonemes of "world" fall inside its word span.
    expect(u.phonemes[0].phoneme).toBe("h");
    const world = u.words[1];
    expect(u.phonemes.some((p) => p.phoneme === "w" && p.startMs >= world.startMs && p.endMs <= world.endMs)).toBe(true);
  });

  it("speaks every call language with timings", async () => {
    for (const lang of LANGUAGES) {
      const voice = engine.voiceForLanguage(lang);
      expect(voice, lang).not.toBeNull();
      const u = await engine.synthesize(SAMPLES[lang], { voice: voice!.id });
      expectTimedSpeech(u);
    }
  });

  it("honours rate: faster speech is shorter", async () => {
    const normal = await engine.synthesize(SENTENCE, { voice: "en-us" });
    const fast = await engine.synthesize(SENTENCE, { voice: "en-us", rate: 1.6 });
    expect(fast.durationMs).toBeLessThan(normal.durationMs * 0.8);
  });

  it("serialises concurrent calls (each result is whole and its own)", async () => {
    const texts = ["One.", "Two two two two.", "Three three three three three three three."];
    const [a, b, c] = await Promise.all(texts.map((t) => engine.synthesize(t)));
    const alone = await engine.synthesize(texts[2]);
    expect(a.durationMs).toBeLessThan(b.durationMs);
    expect(b.durationMs).toBeLessThan(c.durationMs);
    // espeak adds a little random pitch flutter, so compare the sounds, not the samples.
    expect(c.phonemes.map((p) => p.phoneme)).toEqual(alone.phonemes.map((p) => p.phoneme));
    expect(Math.abs(c.durationMs - alone.durationMs)).toBeLessThan(20);
  });

  it("returns an empty utterance for empty text", async () => {
    const u = await engine.synthesize("   ");
    expect(u.pcm.length).toBe(0);
    expect(u.phonemes).toEqual([]);
    expect(u.durationMs).toBe(0);
  });

  it("lists catalogue rows with the espeak identifier, male and female", () => {
    const rows = engine.voices();
    expect(rows.length).toBeGreaterThan(100);
    const us = rows.find((r) => r.id === "en-us");
    expect(us).toMatchObject({ provider: "espeak", name: "English (America)", language: "en-us", gender: "male", identifier: "gmw/en-US" });
    expect(us!.description).not.toBe("");
    expect(rows.find((r) => r.id === "en-us+f3")).toMatchObject({ gender: "female", identifier: "gmw/en-US+f3" });
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it("voiceForLanguage keeps a voice that speaks the language, else same gender, else lowest id, else null", () => {
    expect(engine.voiceForLanguage("en", "en-us")?.id).toBe("en-us");
    expect(engine.voiceForLanguage("en", "gmw/en-US+f3")?.id).toBe("en-us+f3"); // espeak identifiers work too
    expect(engine.voiceForLanguage("es", "en-us")?.id).toBe("es");
    expect(engine.voiceForLanguage("es", "en-us+f3")?.id).toBe("es+f3");
    expect(engine.voiceForLanguage("pt", "fr+f3")?.id).toBe("pt+f3");
    expect(engine.voiceForLanguage("ja")?.id).toBe("ja");
    expect(engine.voiceForLanguage("tlh", "en-us")).toBeNull();
  });

  it("refuses an unknown voice with an UpstreamError", async () => {
    const err = await engine.synthesize("Hello.", { voice: "no-such-voice" }).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("no-such-voice");
  });
});

describe("EspeakEngine when the library is missing", () => {
  const missing = "/nonexistent/libespeak-ng.so.1";

  it("gives UpstreamError 503 (not retryable) naming the library when only the native build is allowed", async () => {
    const err = await EspeakEngine.load({ backend: "native", libraryPath: missing }).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.status).toBe(503);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain(missing);
  });

  it("gives UpstreamError when neither the library nor the WASM package loads", async () => {
    const err = await EspeakEngine.load({ libraryPath: missing, wasmModule: "/nonexistent/espeak-ng.js" }).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.status).toBe(503);
    expect(err.message).toContain("/nonexistent/espeak-ng.js");
  });

  it("falls back to the WASM package, which gives the same kind of timings", async () => {
    const engine = await EspeakEngine.load({ libraryPath: missing });
    expect(engine.backend).toBe("wasm");
    const u = await engine.synthesize(SENTENCE);
    expectTimedSpeech(u);
    expect(u.words[0].text).toBe("Hello");
    expect(engine.voiceForLanguage("fr", "en-us")?.id).toBe("fr");
  });
});
