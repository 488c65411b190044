import { describe, expect, it } from "vitest";
import { Value } from "@sinclair/typebox/value";
import { ApiError } from "../../shared/errors/api-error.ts";
import { buildCatalogue } from "../catalogue/catalogue.ts";
import { SettingsRecord } from "../../shared/wire/settings.ts";
import { applySettingsPatch, exceedsDepth, normaliseReasoning } from "./validate.ts";
import { MODELS, base, catalogue, ctx, tool } from "./testing/validate-fixtures.ts";

const apply = (body: unknown, current = base()) => applySettingsPatch(current, body, ctx);

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}
const invalid = (body: unknown, current = base()) => {
  const e = refusal(() => apply(body, current));
  expect(e.status).toBe(400);
  expect(e.code).toBe("invalid_body");
  return e.message;
};
const refused = (body: unknown, current = base()) => {
  const e = refusal(() => apply(body, current));
  expect(e.status).toBe(400);
  expect(e.code).toBe("setting_refused");
  return e.message;
};

describe("body shape", () => {
  it.each([null, [], "text", 42, true, [{ model: MODELS.sonnet }]])("refuses a body that is not an object: %j", (body) => {
    expect(invalid(body)).toMatch(/JSON object/);
  });
  it("refuses a class instance", () => {
    expect(invalid(new Date())).toMatch(/JSON object/);
  });
  it("accepts an empty object and changes nothing", () => {
    const current = base();
    expect(apply({}, current)).toEqual(current);
  });
  it("does not mutate the current record", () => {
    const current = base();
    const copy = structuredClone(current);
    apply({ max_tokens: 10, tools: [tool()], tool_phrases: { lookup_order: { en: "One moment." } } }, current);
    expect(current).toEqual(copy);
  });
  it("refuses an unknown field, naming it", () => {
    expect(invalid({ colour: "red" })).toMatch(/"colour" is not a settings field/);
  });
  it("refuses a record field that is not settable under another name", () => {
    expect(invalid({ voice_id_nobody: "x" })).toMatch(/voice_id_nobody/);
  });
  it("refuses a body nesting deeper than 32 levels", () => {
    let deep: unknown = {};
    for (let i = 0; i < 40; i++) deep = { a: deep };
    expect(invalid({ tool_phrases: deep })).toMatch(/nests deeper than 32/);
  });
  it("checks very deep nesting without exhausting the stack", () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(invalid({ tools: deep })).toMatch(/nests/);
  });
  it("reports invalid_body before setting_refused", () => {
    expect(invalid({ model: "nope", max_tokens: 0 })).toMatch(/max_tokens/);
  });
});

describe("prototype pollution", () => {
  it("refuses __proto__ as a top-level field and leaves Object.prototype alone", () => {
    const body = JSON.parse('{"__proto__": {"polluted": true}, "max_tokens": 5}');
    expect(invalid(body)).toMatch(/__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it("refuses constructor and prototype as fields", () => {
    expect(invalid(JSON.parse('{"constructor": {"prototype": {"x": 1}}}'))).toMatch(/constructor/);
    expect(invalid({ prototype: 1 })).toMatch(/prototype/);
  });
  it("refuses __proto__ as a tool_phrases key", () => {
    expect(refused(JSON.parse('{"tool_phrases": {"__proto__": {"en": "Hi."}}}'))).toMatch(/tool_phrases/);
    expect(({} as Record<string, unknown>).en).toBeUndefined();
  });
  it("refuses __proto__ and constructor as tool parameter names", () => {
    const params = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    expect(refused({ tools: [tool({ parameters: params })] })).toMatch(/__proto__/);
    expect(refused({ tools: [tool({ parameters: { type: "object", properties: { constructor: { type: "string" } } } })] })).toMatch(
      /constructor/,
    );
  });
  it("refuses __proto__ as a field of a tool", () => {
    const t = JSON.parse(JSON.stringify(tool()).replace(/^\{/, '{"__proto__":{"enabled":false},'));
    expect(refused({ tools: [t] })).toMatch(/__proto__/);
  });
  it("refuses a body whose prototype is not a plain object's", () => {
    expect(invalid(Object.create({ model: MODELS.llama }))).toMatch(/JSON object/);
  });
});

describe("scalar fields", () => {
  it.each([1, 1024, 200_000])("accepts max_tokens %d", (n) => expect(apply({ max_tokens: n }).max_tokens).toBe(n));
  it.each([0, -1, 200_001, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2, "100", null, true])("refuses max_tokens %j", (n) => {
    expect(invalid({ max_tokens: n })).toMatch(/max_tokens/);
  });
  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])("refuses non-finite max_tokens %d", (n) => {
    expect(invalid({ max_tokens: n })).toMatch(/max_tokens/);
  });
  it.each([
    ["temperature", 0],
    ["temperature", 2],
    ["temperature", 0.7],
    ["top_p", 0],
    ["top_p", 1],
    ["top_p", 0.95],
  ] as const)("accepts %s %d on a sampling model", (f, v) => {
    expect(apply({ [f]: v })[f]).toBe(v);
  });
  it("stores -0 as 0", () => {
    expect(Object.is(apply({ temperature: -0 }).temperature, 0)).toBe(true);
  });
  it.each([
    ["temperature", -0.1],
    ["temperature", 2.01],
    // biome-ignore lint/correctness/noPrecisionLoss: a literal that overflows to Infinity is the input under test
    ["temperature", 1e309],
    ["top_p", -1],
    ["top_p", 1.0001],
    ["top_p", "0.5"],
    ["top_p", Number.NaN],
  ] as const)("refuses %s %j", (f, v) => {
    expect(invalid({ [f]: v })).toMatch(new RegExp(f));
  });
  it("accepts null top_p and temperature on any model", () => {
    const r = apply({ model: MODELS.llama, live_model: MODELS.llama, top_p: null, temperature: null });
    expect([r.top_p, r.temperature]).toEqual([null, null]);
  });
  it("accepts system_prompt up to 100000 characters, counting code points", () => {
    const emoji = "😀".repeat(100_000); // 200000 UTF-16 units
    expect(apply({ system_prompt: emoji }).system_prompt).toBe(emoji);
    expect(invalid({ system_prompt: "a".repeat(100_001) })).toMatch(/system_prompt is longer than 100000/);
  });
  it("keeps newlines, tabs, combining marks and right-to-left text in system_prompt", () => {
    const text = "Line one\n\tLine two — café (cafe\u0301) שלום 👩‍👩‍👧";
    expect(apply({ system_prompt: text }).system_prompt).toBe(text);
  });
  it("refuses a lone surrogate and control characters in system_prompt", () => {
    expect(invalid({ system_prompt: "bad \uD800 half" })).toMatch(/lone surrogate/);
    expect(invalid({ system_prompt: "nul \u0000" })).toMatch(/control character/);
  });
  it("refuses a line break in a single-line field", () => {
    expect(invalid({ avatar: "a\nb" })).toMatch(/avatar/);
  });
  it.each(["provider", "model", "live_model", "system_prompt", "effort", "tts_provider", "avatar"])("refuses a non-string %s", (f) => {
    expect(invalid({ [f]: 12 })).toMatch(new RegExp(`${f} must be a string`));
  });
  it("accepts emotion_responsive booleans only", () => {
    expect(apply({ emotion_responsive: false }).emotion_responsive).toBe(false);
    expect(invalid({ emotion_responsive: "false" })).toMatch(/emotion_responsive/);
    expect(invalid({ emotion_responsive: 0 })).toMatch(/emotion_responsive/);
  });
  it("accepts an avatar id and refuses an over-long one", () => {
    expect(apply({ avatar: "av_123" }).avatar).toBe("av_123");
    expect(invalid({ avatar: "a".repeat(257) })).toMatch(/avatar/);
  });
});

describe("voice slots", () => {
  it.each(["voice_id", "voice_id_cartesia", "voice_id_chatterbox", "voice_id_espeak"])("stores %s as a string or null", (f) => {
    expect((apply({ [f]: "v1" }) as Record<string, unknown>)[f]).toBe("v1");
    expect((apply({ [f]: null }) as Record<string, unknown>)[f]).toBeNull();
  });
  it("stores an empty slot as null", () => {
    expect(apply({ voice_id: "" }).voice_id).toBeNull();
  });
  it("refuses a slot of the wrong type or length", () => {
    expect(invalid({ voice_id_cartesia: 5 })).toMatch(/voice_id_cartesia/);
    expect(invalid({ voice_id: "x".repeat(257) })).toMatch(/voice_id/);
  });
  it("leaves other slots alone", () => {
    const r = apply({ voice_id_espeak: "en-us" }, apply({ voice_id: "rachel" }));
    expect([r.voice_id, r.voice_id_espeak]).toEqual(["rachel", "en-us"]);
  });
});

describe("tts_provider", () => {
  it("accepts an engine of this box", () => expect(apply({ tts_provider: "chatterbox" }).tts_provider).toBe("chatterbox"));
  it("refuses an engine this box does not have", () => {
    expect(refused({ tts_provider: "polly" })).toMatch(/tts_provider refused: "polly" is not a voice engine/);
  });
  it("accepts the current value even when the engine has gone", () => {
    const current = { ...base(), tts_provider: "gone" };
    expect(apply({ tts_provider: "gone" }, current).tts_provider).toBe("gone");
  });
});

describe("model and live_model", () => {
  it.each(["model", "live_model"] as const)("accepts a selectable %s", (f) => {
    expect(apply({ [f]: MODELS.llama })[f]).toBe(MODELS.llama);
  });
  it.each(["model", "live_model"] as const)("refuses a %s that does not exist, naming reason and field", (f) => {
    const msg = refused({ [f]: "au.anthropic.nothing" });
    expect(msg).toMatch(new RegExp(`^${f} refused`));
    expect(msg).toMatch(/does not exist/);
    expect(msg).not.toMatch(/will not send data/);
  });
  it.each(["model", "live_model"] as const)("refuses a %s this deployment will not send data to", (f) => {
    const msg = refused({ [f]: MODELS.gpt });
    expect(msg).toMatch(new RegExp(`^${f} refused`));
    expect(msg).toMatch(/will not send data/);
    expect(msg).not.toMatch(/does not exist/);
  });
  it("accepts an offshore model once the deployment opts in", () => {
    const open = buildCatalogue([{ id: MODELS.gpt, label: "GPT", provider: "openai", tiers: [] }], new Map(), {
      allowOffshore: true,
      inCountry: true,
    });
    expect(applySettingsPatch(base(), { model: MODELS.gpt }, { ...ctx, catalogue: open }).model).toBe(MODELS.gpt);
  });
  it("refuses an empty model id as one that does not exist", () => {
    expect(refused({ model: "" })).toMatch(/does not exist/);
  });
  it("accepts writing back the current model even if it left the catalogue", () => {
    const current = { ...base(), model: "au.anthropic.retired" };
    expect(apply({ model: "au.anthropic.retired", max_tokens: 50 }, current).max_tokens).toBe(50);
  });
  it("saves nothing when one field of the body is refused", () => {
    expect(refused({ max_tokens: 77, model: MODELS.gpt })).toMatch(/model/);
  });
});

describe("provider", () => {
  it("follows the model", () => {
    expect(apply({ model: MODELS.llama }).provider).toBe("meta");
  });
  it("accepts the model's own provider", () => {
    expect(apply({ model: MODELS.llama, provider: "meta" }).provider).toBe("meta");
  });
  it("refuses a provider that does not serve the model", () => {
    expect(refused({ provider: "meta" })).toMatch(/provider refused: "meta" does not serve the model/);
  });
  it("accepts a stale provider written back with a new model and corrects it", () => {
    const r = apply({ provider: "anthropic", model: MODELS.llama });
    expect(r.provider).toBe("meta");
  });
  it("refuses a provider with no model here when no model is chosen", () => {
    const current = { ...base(), model: "", live_model: "", provider: "" };
    expect(refused({ provider: "acme" }, current)).toMatch(/offers no model/);
    expect(apply({ provider: "meta" }, current).provider).toBe("meta");
  });
});

describe("sampling", () => {
  it.each(["top_p", "temperature"] as const)("refuses %s when model does not support sampling", (f) => {
    const current = { ...base(), model: MODELS.opus };
    const msg = refused({ [f]: 0.5 }, current);
    expect(msg).toMatch(new RegExp(`^${f} cannot be set: the model "${MODELS.opus}"`));
  });
  it.each(["top_p", "temperature"] as const)("refuses %s when live_model does not support sampling", (f) => {
    expect(refused({ [f]: 0.5, live_model: MODELS.llama })).toMatch(new RegExp(`${f} cannot be set: the live_model`));
  });
  it("judges sampling against the models after the write", () => {
    const current = { ...base(), model: MODELS.opus };
    expect(apply({ top_p: 0.5, model: MODELS.sonnet }, current).top_p).toBe(0.5);
  });
  it("refuses switching to a model without sampling while top_p is set", () => {
    const current = apply({ top_p: 0.5 });
    expect(refused({ model: MODELS.opus }, current)).toMatch(/top_p cannot be set/);
    expect(apply({ model: MODELS.opus, top_p: null }, current).top_p).toBeNull();
  });
  it("refuses sampling while no model is chosen", () => {
    const current = { ...base(), model: "", live_model: "" };
    expect(refused({ temperature: 1 }, current)).toMatch(/no model/);
  });
});

describe("effort", () => {
  it.each(["low", "high", "xhigh", "max"])("accepts %s on a model taking effort up to max", (e) => {
    const current = { ...base(), live_model: MODELS.sonnet };
    expect(apply({ effort: e }, current).effort).toBe(e);
  });
  it("refuses a value outside effort_levels", () => {
    const current = { ...base(), live_model: MODELS.sonnet };
    expect(refused({ effort: "extreme" }, current)).toMatch(/effort refused: "extreme" is not one of low, medium, high, xhigh, max/);
  });
  it("refuses effort on a model without supports_effort", () => {
    expect(refused({ effort: "high" })).toMatch(/effort refused: the live_model "au.anthropic.haiku" does not accept an effort level/);
  });
  it("refuses max on a model without effort_max", () => {
    const current = { ...base(), model: MODELS.opus, live_model: MODELS.opus };
    expect(refused({ effort: "max" }, current)).toMatch(/does not accept max effort/);
    expect(apply({ effort: "high" }, current).effort).toBe("high");
  });
  it("accepts writing back the current effort on any model", () => {
    expect(apply({ effort: "medium", model: MODELS.llama, live_model: MODELS.llama }).effort).toBe("medium");
  });
});

describe("reasoning", () => {
  it.each(["off", "low", "medium", "high"])("stores the level %s", (l) => expect(apply({ reasoning: l }).reasoning).toBe(l));
  it.each(["", null, "max", "HIGH", "auto", 3, true, {}, []])("treats %j as automatic (null) without refusing", (v) => {
    expect(apply({ reasoning: v }, apply({ reasoning: "high" })).reasoning).toBeNull();
  });
  it("normalises directly", () => {
    expect(normaliseReasoning("low")).toBe("low");
    expect(normaliseReasoning("x")).toBeNull();
  });
});

describe("tools, tool_phrases and system_tools through the patch", () => {
  it("writes tools whole and clears them with an empty list", () => {
    const one = apply({ tools: [tool()] });
    expect(one.tools.map((t) => t.name)).toEqual(["lookup_order"]);
    const two = apply({ tools: [tool({ name: "other_tool" })] }, one);
    expect(two.tools.map((t) => t.name)).toEqual(["other_tool"]);
    expect(apply({ tools: [] }, two).tools).toEqual([]);
  });
  it("keeps the tools when they are not sent", () => {
    const one = apply({ tools: [tool()] });
    expect(apply({ max_tokens: 9 }, one).tools).toHaveLength(1);
  });
  it("saves nothing from a request whose tools are refused", () => {
    const current = apply({ tools: [tool()] });
    expect(refused({ tools: [tool({ name: "end_call" })], max_tokens: 3 }, current)).toMatch(/reserved/);
  });
  it("sets and resets system_tools", () => {
    const r = apply({ system_tools: ["end_call"] });
    expect(r.system_tools).toEqual(["end_call"]);
    expect(apply({ system_tools: [] }, r).system_tools).toEqual([]);
  });
  it("leaves system_tools absent (all on) by default", () => {
    expect("system_tools" in apply({})).toBe(false);
  });
  it("refuses a bad system_tools with nothing changed", () => {
    expect(refused({ system_tools: "end_call", max_tokens: 3 })).toMatch(/system_tools/);
  });
  it("writes tool_phrases whole", () => {
    const r = apply({ tool_phrases: { lookup_order: { en: "Let me check that." } } });
    expect(apply({ tool_phrases: { weather: { fr: "Je regarde la météo." } } }, r).tool_phrases).toEqual({
      weather: { fr: "Je regarde la météo." },
    });
  });
});

describe("the record after a write", () => {
  it("is a valid SettingsRecord", () => {
    const r = apply({
      model: MODELS.sonnet,
      live_model: MODELS.sonnet,
      top_p: 0.9,
      temperature: 1.2,
      effort: "max",
      reasoning: "low",
      tts_provider: "cartesia",
      voice_id_cartesia: "abc",
      tools: [tool({ enabled: false })],
      tool_phrases: { lookup_order: { ja: "少々お待ちください。" } },
      system_tools: ["end_call", "skip_turn"],
    });
    expect(Value.Check(SettingsRecord, r)).toBe(true);
  });
  it("leaves unsent fields alone", () => {
    const current = base();
    const r = apply({ max_tokens: 42 }, current);
    expect({ ...r, max_tokens: current.max_tokens }).toEqual(current);
  });
  it("uses the fixture catalogue with the expected defaults", () => {
    expect(base().model).toBe(MODELS.sonnet);
    expect(base().live_model).toBe(MODELS.haiku);
    expect(catalogue.at(-1)?.id).toBe(MODELS.gpt);
  });
});

describe("exceedsDepth", () => {
  it("counts containers, not scalars", () => {
    expect(exceedsDepth(5, 0)).toBe(false);
    expect(exceedsDepth({}, 0)).toBe(true);
    expect(exceedsDepth({}, 1)).toBe(false);
    expect(exceedsDepth({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(exceedsDepth({ a: [1, { b: 2 }] }, 2)).toBe(true);
  });
  it("finds the deep branch among shallow ones", () => {
    expect(exceedsDepth([[], [], [[[[]]]]], 4)).toBe(true);
    expect(exceedsDepth([[], [], [[[[]]]]], 5)).toBe(false);
  });
  it("terminates on a cycle and on heavily shared values", () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(exceedsDepth(a, 32)).toBe(true);
    let shared: unknown = [];
    for (let i = 0; i < 30; i++) shared = [shared, shared];
    expect(exceedsDepth(shared, 31)).toBe(false);
    expect(exceedsDepth(shared, 30)).toBe(true);
  });
});
