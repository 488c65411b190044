import { describe, expect, it } from "vitest";
import { ToneMarker } from "./tone-marker.ts";
import { ModerationScreen } from "./moderation.ts";

function run(chunks: string[]) {
  const m = new ToneMarker();
  const out = chunks.map((c) => m.push(c)).join("") + m.flush();
  return { tone: m.tone, out };
}

describe("ToneMarker", () => {
  it("reads a leading marker split across deltas and strips it", () => {
    expect(run(["[to", "ne:hap", "py] Hello", " there"])).toEqual({ tone: "happy", out: "Hello there" });
  });
  it("is neutral without a marker, and for a tone outside the vocabulary", () => {
    expect(run(["Hello"])).toEqual({ tone: "neutral", out: "Hello" });
    expect(run(["[tone:furious] Grr"])).toEqual({ tone: "neutral", out: "Grr" });
    expect(run(["[citation] x"])).toEqual({ tone: "neutral", out: "[citation] x" });
  });
  it("drops a dangling marker at the end of an empty reply", () => {
    expect(run(["[tone:sa"])).toEqual({ tone: "neutral", out: "" });
  });
});

describe("ModerationScreen", () => {
  it("removes blocked words and patterns, case-insensitively, and says so", () => {
    const s = new ModerationScreen({ words: ["darn"], patterns: ["\\b\\d{3}-\\d{4}\\b"] });
    expect(s.screen("Well DARN, call 555-1234 now.")).toEqual({ text: "Well, call now.", flagged: true });
    expect(s.screen("All clean here.")).toEqual({ text: "All clean here.", flagged: false });
    expect(s.screen("darned is fine")).toEqual({ text: "darned is fine", flagged: false });
  });
});
