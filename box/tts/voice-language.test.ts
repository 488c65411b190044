import { describe, expect, it } from "vitest";
import type { VoiceRow } from "./engine.ts";
import { primaryLanguage, speaksLanguage, voiceForCall, voiceForLanguage } from "./voice-language.ts";

const row = (id: string, gender: string, ...languages: string[]): VoiceRow => ({
  provider: "test",
  id,
  name: id,
  language: languages[0],
  gender,
  description: "",
  languages,
});

const ROWS: VoiceRow[] = [
  row("v9", "female", "en-us", "en"),
  row("v5", "male", "en-gb"),
  row("v7", "male", "es"),
  row("v3", "female", "es-419", "es"),
  row("v4", "female", "es"),
  row("v2", "male", "fr-fr"),
  row("v8", "neutral", "de"),
];

describe("voiceForLanguage (Language of a call)", () => {
  it("keeps the current voice when it speaks the language", () => {
    expect(voiceForLanguage(ROWS, "en", "v9")?.id).toBe("v9");
    expect(voiceForLanguage(ROWS, "es", "v4")?.id).toBe("v4"); // not the lower v3
  });

  it("otherwise prefers a voice of the current voice's gender, lowest id first", () => {
    expect(voiceForLanguage(ROWS, "es", "v9")?.id).toBe("v3");
    expect(voiceForLanguage(ROWS, "es", "v5")?.id).toBe("v7");
  });

  it("takes the lowest id of any gender when none shares the current one", () => {
    expect(voiceForLanguage(ROWS, "fr", "v9")?.id).toBe("v2");
    expect(voiceForLanguage(ROWS, "de", "v5")?.id).toBe("v8");
  });

  it("takes the lowest id when there is no current voice or it is unknown", () => {
    expect(voiceForLanguage(ROWS, "es")?.id).toBe("v3");
    expect(voiceForLanguage(ROWS, "es", "gone")?.id).toBe("v3");
  });

  it("returns null when no voice speaks the language", () => {
    expect(voiceForLanguage(ROWS, "ja", "v9")).toBeNull();
    expect(voiceForLanguage([], "en")).toBeNull();
  });

  it("matches on the primary subtag of every language a row lists", () => {
    expect(primaryLanguage("pt_BR")).toBe("pt");
    expect(speaksLanguage(ROWS[3], "ES")).toBe(true);
    expect(speaksLanguage(row("x", "male", "en-029"), "en")).toBe(true);
    expect(speaksLanguage({ ...ROWS[1], languages: undefined }, "en-GB")).toBe(true);
  });
});

describe("voiceForCall (change_language, per engine)", () => {
  it("ElevenLabs keeps its voice and changes language, even one its row does not list", () => {
    expect(voiceForCall("elevenlabs", ROWS, "ja", "v5")?.id).toBe("v5");
    // No current voice named: the engine's first row stands in for its default.
    expect(voiceForCall("elevenlabs", ROWS, "de", null)?.id).toBe("v9");
    expect(voiceForCall("elevenlabs", [], "de", "v5")).toBeNull();
  });

  it("every other engine keeps a voice that speaks it, else same gender then lowest id, else refuses", () => {
    for (const provider of ["cartesia", "chatterbox", "espeak"]) {
      expect(voiceForCall(provider, ROWS, "es", "v7")?.id, provider).toBe("v7");
      expect(voiceForCall(provider, ROWS, "es", "v9")?.id, provider).toBe("v3");
      expect(voiceForCall(provider, ROWS, "es", "v5")?.id, provider).toBe("v7");
      expect(voiceForCall(provider, ROWS, "ja", "v9"), provider).toBeNull();
    }
  });
});
