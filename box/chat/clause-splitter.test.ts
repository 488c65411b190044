import { describe, expect, it } from "vitest";
import { ClauseSplitter } from "./clause-splitter.ts";

function feed(text: string, chunk = 3) {
  const s = new ClauseSplitter();
  const out: string[] = [];
  for (let i = 0; i < text.length; i += chunk) out.push(...s.push(text.slice(i, i + chunk)));
  return { streamed: [...out], all: [...out, ...s.flush()] };
}

describe("ClauseSplitter", () => {
  it("emits each sentence as soon as it is complete", () => {
    const s = new ClauseSplitter();
    expect(s.push("Hello there! How")).toEqual(["Hello there!"]);
    expect(s.push(" are you? I am")).toEqual(["How are you?"]);
    expect(s.flush()).toEqual(["I am"]);
  });
  it("does not cut decimals, abbreviations or initials", () => {
    expect(feed("It costs 3.50 dollars, said Dr. Smith to J. Doe today. Next.").all).toEqual(["It costs 3.50 dollars, said Dr. Smith to J. Doe today.", "Next."]);
  });
  it("cuts long sentences at commas, short ones not", () => {
    expect(feed("Yes, sure.").all).toEqual(["Yes, sure."]);
    const long = "When the weather turns cold in the mountains every winter, the roads close, and we stay home.";
    expect(feed(long).all).toEqual(["When the weather turns cold in the mountains every winter,", "the roads close, and we stay home."]);
  });
  it("force-cuts a run-on clause at a space and keeps every word", () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
    const { all } = feed(words, 7);
    expect(all.length).toBeGreaterThan(1);
    expect(all.join(" ")).toBe(words);
    for (const c of all) expect(c.length).toBeLessThanOrEqual(220);
  });
  it("splits on newlines and CJK full stops; loses nothing whatever the chunking", () => {
    const text = "First line\nこんにちは。元気ですか？ Fine.";
    expect(feed(text, 100).all).toEqual(["First line", "こんにちは。", "元気ですか？", "Fine."]);
    const squash = (t: string) => t.replace(/\s+/g, "");
    for (const chunk of [1, 2, 5, 100]) expect(squash(feed(text, chunk).all.join(" "))).toBe(squash(text));
  });
});
