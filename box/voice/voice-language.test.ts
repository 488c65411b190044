import { describe, expect, it } from "vitest";
import type { VoiceRow } from "./engine.ts";
import { primaryLanguage, speaksLanguage, voiceForLanguage } from "./voice-language.ts";

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
