import { describe, expect, it } from "vitest";
import { buildUtterance, cleanPhoneme, type EspeakRawEvent } from "./espeak-events.ts";

const ph = (audioMs: number, name: string): EspeakRawEvent => ({ kind: "phoneme", audioMs, textPosition: 0, length: 0, name });
const word = (audioMs: number, textPosition: number, length: number): EspeakRawEvent => ({ kind: "word", audioMs, textPosition, length });

describe("buildUtterance", () => {
  // "Hi, ma." at 1000 Hz so 1 sample = 1 ms.
  const text = "Hi, ma.";
  const events: EspeakRawEvent[] = [
    word(0, 1, 2),
    ph(10, "h"),
    ph(60, "ˈaɪ"),
    ph(200, ""), // pause after the comma
    ph(350, "(en)"), // a language switch is not a sound
    { kind: "end", audioMs: 350, textPosition: 0, length: 0 },
    word(350, 5, 2),
    ph(350, "m"),
    ph(420, "ɑː"),
    ph(600, ""),
  ];
  const u = buildUtterance(text, [new Int16Array(400).fill(1), new Int16Array(300).fill(1)], events, 1000);

  it("joins the PCM chunks and measures the duration", () => {
    expect(u.pcm.length).toBe(700);
    expect(u.durationMs).toBe(700);
  });

  it("times each phoneme to the next event, drops pauses, marks and language switches", () => {
    expect(u.phonemes).toEqual([
      { phoneme: "h", startMs: 10, endMs: 60 },
      { phoneme: "aɪ", startMs: 60, endMs: 200 },
      { phoneme: "m", startMs: 350, endMs: 420 },
      { phoneme: "ɑː", startMs: 420, endMs: 600 },
    ]);
  });

  it("gives each word its text and the span of its sounds", () => {
    expect(u.words).toEqual([
      { startMs: 10, endMs: 200, text: "Hi" },
      { startMs: 350, endMs: 600, text: "ma" },
    ]);
  });

  it("cleans phoneme names", () => {
    expect(cleanPhoneme("ˈoʊ")).toBe("oʊ");
    expect(cleanPhoneme("ə-")).toBe("ə");
    expect(cleanPhoneme("_:")).toBe("");
  });
});
