import { describe, expect, it } from "vitest";
import { ApiError } from "../../shared/errors/api-error.ts";
import { LANGUAGES, SYSTEM_TOOLS } from "../../shared/wire/settings.ts";
import { checkSystemTools, checkToolPhrases, isOneSentence } from "./validate-phrases.ts";

function refusedMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).code).toBe("setting_refused");
    return (err as ApiError).message;
  }
  throw new Error("expected setting_refused");
}
const refusePhrases = (v: unknown) => refusedMessage(() => checkToolPhrases(v));
const one = (line: unknown, lang = "en", tool = "lookup_order") => ({ [tool]: { [lang]: line } });

describe("tool_phrases shape", () => {
  it("accepts an empty object (clears)", () => expect(checkToolPhrases({})).toEqual({}));
  it.each([null, [], "x", 1])("refuses %j as not an object", (v) => {
    expect(refusePhrases(v)).toMatch(/^tool_phrases must be an object/);
  });
  it("accepts every language", () => {
    const all = Object.fromEntries(LANGUAGES.map((l) => [l, "One moment."]));
    expect(checkToolPhrases({ weather: all }).weather).toEqual(all);
  });
  it.each(["EN", "en-US", "zh", "xx", "__proto__"])("refuses the language %s", (lang) => {
    expect(refusePhrases(JSON.parse(JSON.stringify({ weather: {} }).replace("{}", `{${JSON.stringify(lang)}:"Hi."}`)))).toMatch(
      /is not one of en, es, fr, de, it, pt, hi, ja/,
    );
  });
  it("accepts 32 tools and refuses 33", () => {
    const n = (k: number) => Object.fromEntries(Array.from({ length: k }, (_, i) => [`tool_${i}`, { en: "Working on it." }]));
    expect(Object.keys(checkToolPhrases(n(32)))).toHaveLength(32);
    expect(refusePhrases(n(33))).toMatch(/at most 32/);
  });
  it("refuses an entry for skip_turn", () => {
    expect(refusePhrases(one("Hmm.", "en", "skip_turn"))).toMatch(/skip_turn/);
  });
  it.each(["end_call", "pause_conversation", "change_language", "weather", "calculate", "not_defined_yet"])(
    "accepts a phrase for %s",
    (tool) => {
      expect(checkToolPhrases(one("Just a moment.", "en", tool))[tool].en).toBe("Just a moment.");
    },
  );
  it.each(["Bad", "a", "1tool", "has space", "__proto__", "constructor"])("refuses the tool name %j", (tool) => {
    expect(refusePhrases(JSON.parse(`{${JSON.stringify(tool)}: {"en": "Hi."}}`))).toMatch(/tool_phrases: the tool name/);
  });
  it.each([null, "Hi.", ["Hi."]])("refuses a per-tool value %j that is not an object", (v) => {
    expect(refusePhrases({ weather: v })).toMatch(/tool_phrases.weather must be an object/);
  });
  it("keeps a tool with no languages", () => {
    expect(checkToolPhrases({ weather: {} })).toEqual({ weather: {} });
  });
  it("does not let a __proto__ language reach the prototype", () => {
    refusePhrases(JSON.parse('{"weather": {"__proto__": {"polluted": 1}}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("a phrase line", () => {
  it("accepts 160 characters and refuses 161", () => {
    expect(checkToolPhrases(one("a".repeat(160))).lookup_order.en).toHaveLength(160);
    expect(refusePhrases(one("a".repeat(161)))).toMatch(/longer than 160/);
  });
  it("counts characters as code points", () => {
    expect(checkToolPhrases(one("😀".repeat(160))).lookup_order.en).toBe("😀".repeat(160));
  });
  it("trims surrounding space", () => {
    expect(checkToolPhrases(one("  One moment.  ")).lookup_order.en).toBe("One moment.");
  });
  it.each(["<break/> wait", "Wait [pause] please", "a > b", "x]"])("refuses brackets in %j", (line) => {
    expect(refusePhrases(one(line))).toMatch(/angle or square brackets/);
  });
  it.each(["", "   "])("refuses an empty line %j", (line) => {
    expect(refusePhrases(one(line))).toMatch(/is empty/);
  });
  it.each([3, null, { text: "x" }])("refuses a non-string line %j", (line) => {
    expect(refusePhrases(one(line))).toMatch(/must be a line of text/);
  });
  it.each(["Line one\nline two", "tab\tinside", "nul\u0000", "sep\u2028x", "lone \uD83D half"])(
    "refuses control characters or broken text in %j",
    (line) => {
      expect(refusePhrases(one(line))).toMatch(/control character|lone surrogate/);
    },
  );
  it.each([
    ["en", "Let me look that up for you."],
    ["es", "¡Un momento, por favor!"],
    ["fr", "Je vérifie ça tout de suite."],
    ["de", "Einen Augenblick, ich schaue nach."],
    ["it", "Un attimo, controllo subito."],
    ["pt", "Só um instante, estou verificando."],
    ["hi", "एक क्षण, मैं देखता हूँ।"],
    ["ja", "少々お待ちください。"],
  ])("accepts a %s sentence", (lang, line) => {
    expect(checkToolPhrases(one(line, lang)).lookup_order[lang]).toBe(line);
  });
  it.each([
    "One moment. Let me check.",
    "Sure! Checking now.",
    "Really? Okay then.",
    "¡Hola! ¿Qué tal?",
    "少々お待ちください。確認します。",
    "एक क्षण। मैं देखता हूँ।",
  ])("refuses more than one sentence: %j", (line) => {
    expect(refusePhrases(one(line))).toMatch(/more than one sentence/);
  });
});

describe("isOneSentence", () => {
  it.each([
    "Checking now",
    "Let me see... one moment.",
    "Let me see… one moment.",
    "Asking Dr. Lee now.",
    "Calling J. Smith for you.",
    "It costs 3.50 dollars.",
    "Okay! let me check.",
    "Looking it up (one sec.)",
    '"Right away."',
  ])("treats %j as one sentence", (line) => {
    expect(isOneSentence(line)).toBe(true);
  });
  it.each(["Done. Next.", "Yes! Great.", "What? No.", "Hold on.\" Then I'll check."])("treats %j as more than one", (line) => {
    expect(isOneSentence(line)).toBe(false);
  });
});

describe("system_tools", () => {
  it("accepts all four, any subset and none", () => {
    expect(checkSystemTools([...SYSTEM_TOOLS])).toEqual([...SYSTEM_TOOLS]);
    expect(checkSystemTools(["skip_turn"])).toEqual(["skip_turn"]);
    expect(checkSystemTools([])).toEqual([]);
  });
  it.each([null, "end_call", { end_call: true }, 4])("refuses %j as not a list", (v) => {
    expect(refusedMessage(() => checkSystemTools(v))).toMatch(/system_tools must be a list/);
  });
  it.each([["weather"], ["End_Call"], [1], [null], ["end_call", "hang_up"]])("refuses unknown names %j", (...v) => {
    expect(refusedMessage(() => checkSystemTools(v))).toMatch(/is not a system tool/);
  });
  it("refuses a repeated name", () => {
    expect(refusedMessage(() => checkSystemTools(["end_call", "end_call"]))).toMatch(/names end_call twice/);
  });
  it("returns a copy", () => {
    const input = ["end_call"];
    const out = checkSystemTools(input);
    out.push("skip_turn");
    expect(input).toEqual(["end_call"]);
  });
});
