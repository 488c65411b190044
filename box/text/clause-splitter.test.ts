import { describe, expect, it } from "vitest";
import { ClauseSplitter, REPLY_FIRST_PHRASE_WORDS } from "./clause-splitter.ts";
import { ToneMarker } from "../chat/tone-marker.ts";

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
    expect(feed("It costs 3.50 dollars, said Dr. Smith to J. Doe today. Next.").all).toEqual([
      "It costs 3.50 dollars, said Dr. Smith to J. Doe today.",
      "Next.",
    ]);
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

describe("ClauseSplitter: the first phrase of a model reply (issue 23 item 2)", () => {
  const reply = (text: string, chunk = 3) => {
    const s = new ClauseSplitter({ firstPhraseWords: REPLY_FIRST_PHRASE_WORDS });
    const out: string[] = [];
    for (let i = 0; i < text.length; i += chunk) out.push(...s.push(text.slice(i, i + chunk)));
    return [...out, ...s.flush()];
  };

  it("the first piece goes at a comma, semicolon, colon or spaced dash once it has three words; later ones are whole clauses", () => {
    const text = "Well, let me see, the table for two is booked, and the bill comes later, so relax.";
    expect(reply(text)).toEqual(["Well, let me see,", "the table for two is booked, and the bill comes later,", "so relax."]);
    // The same text as a clause-sized splitter (the default) cuts it: the first piece waits for 48 characters.
    expect(feed(text).all).toEqual(["Well, let me see, the table for two is booked, and the bill comes later,", "so relax."]);
    expect(reply("Here is the plan: we meet at noon.")).toEqual(["Here is the plan:", "we meet at noon."]);
    expect(reply("I checked twice; it is open today.")).toEqual(["I checked twice;", "it is open today."]);
    expect(reply("It all depends — on the day, mostly.")).toEqual(["It all depends —", "on the day, mostly."]);
    expect(reply("Good question – it depends.")).toEqual(["Good question – it depends."]); // two words before the dash
    expect(reply("I don't know, honestly, what to say.")).toEqual(["I don't know,", "honestly, what to say."]);
    expect(reply("こんにちは、今日はいい天気ですね。")).toEqual(["こんにちは、", "今日はいい天気ですね。"]); // CJK: six characters, no spaces to count
  });

  it("the first piece goes as soon as its mark arrives after a word, not at the end of the reply", () => {
    const s = new ClauseSplitter({ firstPhraseWords: REPLY_FIRST_PHRASE_WORDS });
    expect(s.push("Sure thing, my")).toEqual([]); // two words: too short for a phrase
    const t = new ClauseSplitter({ firstPhraseWords: REPLY_FIRST_PHRASE_WORDS });
    expect(t.push("Of course I can,")).toEqual(["Of course I can,"]); // a comma after a letter: no wait for the next token
    expect(t.push(" the")).toEqual([]);
    expect(t.push(" rest, goes, in one.")).toEqual([]);
    expect(t.flush()).toEqual(["the rest, goes, in one."]);
    // After a digit it waits: "1," may be "1,000".
    const n = new ClauseSplitter({ firstPhraseWords: REPLY_FIRST_PHRASE_WORDS });
    expect(n.push("We counted 1,")).toEqual([]);
    expect(n.push("000 guests, roughly")).toEqual(["We counted 1,000 guests,"]);
  });

  it("never cuts inside a number, after an abbreviation, at a hyphen, or a phrase under three words", () => {
    expect(reply("It costs 1,000 dollars, more or less.", 1)).toEqual(["It costs 1,000 dollars,", "more or less."]);
    expect(reply("We have 3,500,000 of them and more.")).toEqual(["We have 3,500,000 of them and more."]);
    expect(reply("Bring fruit, e.g., apples and pears.")).toEqual(["Bring fruit, e.g., apples and pears."]);
    expect(reply("A well-known place - easy to find.")).toEqual(["A well-known place -", "easy to find."]);
    expect(reply("A well-known place is easy to find.")).toEqual(["A well-known place is easy to find."]);
    expect(reply("Yes, sure, happy to help.")).toEqual(["Yes, sure, happy to help."]);
    expect(reply("Hi. Well, let me see, now.")).toEqual(["Hi.", "Well, let me see, now."]); // a sentence was the first piece
  });

  it("keeps the tone marker: the marker never reaches the voice and the first phrase carries its tone", () => {
    const marker = new ToneMarker();
    const s = new ClauseSplitter({ firstPhraseWords: REPLY_FIRST_PHRASE_WORDS });
    const out: { text: string; tone: string }[] = [];
    // As the turn engine feeds them: marker first, then the splitter.
    for (const d of ["[to", "ne:happy] Oh", " that is great,", " really", " great news."])
      for (const c of s.push(marker.push(d))) out.push({ text: c, tone: marker.tone });
    for (const c of [...s.push(marker.flush()), ...s.flush()]) out.push({ text: c, tone: marker.tone });
    expect(out).toEqual([
      { text: "Oh that is great,", tone: "happy" },
      { text: "really great news.", tone: "happy" },
    ]);
  });

  it("loses nothing whatever the chunking", () => {
    const text = "Well now, here is a thought: 2,500 people — give or take — came, e.g. Dr. Smith; and then, finally, the end.";
    const squash = (t: string) => t.replace(/\s+/g, "");
    for (const chunk of [1, 2, 5, 100]) expect(squash(reply(text, chunk).join(" "))).toBe(squash(text));
  });
});
