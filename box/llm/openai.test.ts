import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { OpenAiProvider } from "./openai.ts";
import { ProbeCache } from "./probe-cache.ts";
import { baseRequest, collect, failure, textOf } from "./testing/collect.ts";
import { FakeOpenAi } from "./testing/fake-openai.ts";
import type { FakeModel } from "./testing/script.ts";

const MODELS: FakeModel[] = [
  // A plain chat model: no sampling refusal, but no reasoning_effort and no forced tool choice.
  {
    id: "plain",
    refuse: (b) => ("reasoning_effort" in b ? "reasoning_effort" : typeof b.tool_choice === "object" ? "tool_choice" : undefined),
  },
  // A reasoning model: thinking always on, no sampling, max_completion_tokens only.
  {
    id: "thinker",
    refuse: (b) =>
      "temperature" in b || "top_p" in b
        ? "temperature"
        : "max_tokens" in b
          ? "max_tokens"
          : ["none", "max"].includes(b.reasoning_effort)
            ? "reasoning_effort"
            : undefined,
  },
  // A hybrid model that accepts everything, thinking off included.
  { id: "hybrid" },
  { id: "text-embedding-3-small" },
];

let fake: FakeOpenAi;
let dir: string;
const provider = (extra: Partial<ConstructorParameters<typeof OpenAiProvider>[0]> = {}) =>
  new OpenAiProvider({ baseUrl: `${fake.url}/v1`, apiKey: "sk-test", cache: new ProbeCache({ dir }), ...extra });

beforeEach(async () => {
  fake = await FakeOpenAi.start({ models: MODELS, apiKey: "sk-test" });
  dir = await mkdtemp(join(tmpdir(), "llm-openai-"));
});
afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe("OpenAI-compatible streaming", () => {
  it("streams text deltas in order, then usage and stop", async () => {
    fake.enqueue([{ text: "Hel" }, { text: "lo, " }, { text: "wörld ✓" }, { usage: { inputTokens: 11, outputTokens: 3 } }]);
    const events = await collect(provider().stream(baseRequest("plain")));
    expect(events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text)).toEqual(["Hel", "lo, ", "wörld ✓"]);
    expect(events.slice(-2)).toEqual([
      { type: "usage", inputTokens: 11, outputTokens: 3 },
      { type: "stop", reason: "end" },
    ]);
    expect(fake.lastRequest?.headers.authorization).toBe("Bearer sk-test");
    expect(fake.lastRequest?.body.stream_options).toEqual({ include_usage: true });
  });

  it("joins frames split across socket reads, multi-byte characters included", async () => {
    await fake.close();
    fake = await FakeOpenAi.start({ models: MODELS, fragment: true });
    fake.enqueue([{ text: "naïve " }, { text: "café 🙂" }, { toolCall: { name: "look", args: { q: "é" } } }]);
    const events = await collect(provider({ apiKey: undefined }).stream(baseRequest("plain")));
    expect(textOf(events)).toBe("naïve café 🙂");
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ name: "look", args: { q: "é" } });
  });

  it("assembles tool calls across chunks with parsed args and stop tool_use", async () => {
    fake.enqueue([
      { text: "Checking." },
      { toolCall: { id: "call_a", name: "get_weather", args: { place: "Hobart", days: 2 } } },
      { toolCall: { id: "call_b", name: "get_time", args: {} } },
    ]);
    const events = await collect(provider().stream(baseRequest("plain")));
    const calls = events.filter((e) => e.type === "tool_call");
    expect(calls).toEqual([
      { type: "tool_call", id: "call_a", name: "get_weather", args: { place: "Hobart", days: 2 } },
      { type: "tool_call", id: "call_b", name: "get_time", args: {} },
    ]);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
  });

  it("gives unparseable tool arguments as the raw string, flagged", async () => {
    fake.enqueue([{ toolCall: { name: "f", rawArgs: '{"a": 1,' } }]);
    const events = await collect(provider().stream(baseRequest("plain")));
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ args: '{"a": 1,', argsInvalid: true });
  });

  it("reports max_tokens as the stop reason", async () => {
    fake.enqueue([{ text: "cut" }, { stop: "max_tokens" }]);
    const events = await collect(provider().stream(baseRequest("plain")));
    expect(events.at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
  });

  it("an empty generation stops with no text", async () => {
    fake.enqueue([]);
    const events = await collect(provider().stream(baseRequest("plain")));
    expect(events.some((e) => e.type === "text")).toBe(false);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "end" });
  });

  it("waits for a slow first token", async () => {
    fake.enqueue([{ delayMs: 400 }, { text: "late" }]);
    expect(textOf(await collect(provider().stream(baseRequest("plain"))))).toBe("late");
  });
});

describe("OpenAI-compatible failures", () => {
  it("an error event mid-stream throws UpstreamError after the text so far", async () => {
    fake.enqueue([{ text: "partial" }, { errorMidStream: { message: "boom" } }]);
    const { error, events } = await failure(provider().stream(baseRequest("plain")));
    expect(textOf(events)).toBe("partial");
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(500);
  });

  it("a dropped connection mid-stream is a retryable 502", async () => {
    fake.enqueue([{ text: "a" }, { disconnect: true }]);
    const { error } = await failure(provider().stream(baseRequest("plain")));
    expect(error).toMatchObject({ name: "UpstreamError", status: 502, retryable: true });
  });

  it("HTTP 429 is retryable, 400 is not, 401 is not", async () => {
    fake.enqueue([{ httpError: 429, message: "Rate limit reached" }], [{ httpError: 400, message: "bad" }]);
    const e429 = (await failure(provider().stream(baseRequest("plain")))).error;
    expect(e429).toMatchObject({ status: 429, retryable: true });
    expect(e429.message).toContain("Rate limit reached");
    expect((await failure(provider().stream(baseRequest("plain")))).error).toMatchObject({ status: 400, retryable: false });
    expect((await failure(provider({ apiKey: "wrong" }).stream(baseRequest("plain")))).error).toMatchObject({
      status: 401,
      retryable: false,
    });
  });

  it("an unreachable server is a retryable 502", async () => {
    const url = fake.url;
    await fake.close();
    const { error } = await failure(new OpenAiProvider({ baseUrl: url }).stream(baseRequest("plain")));
    expect(error).toMatchObject({ status: 502, retryable: true });
  });

  it("abort via signal stops the stream with the abort reason and closes the socket", async () => {
    fake.enqueue([{ text: "one" }, { delayMs: 5000 }, { text: "never" }]);
    const ctl = new AbortController();
    const events: string[] = [];
    let caught: unknown;
    try {
      for await (const ev of provider().stream(baseRequest("plain", { signal: ctl.signal }))) {
        if (ev.type === "text") events.push(ev.text);
        ctl.abort();
      }
    } catch (err) {
      caught = err;
    }
    expect(events).toEqual(["one"]);
    expect(caught).toBeInstanceOf(DOMException);
    expect((caught as DOMException).name).toBe("AbortError");
    await fake.lastRequest!.closed;
  });

  it("breaking out of the loop closes the socket", async () => {
    fake.enqueue([{ text: "one" }, { delayMs: 5000 }, { text: "never" }]);
    for await (const ev of provider().stream(baseRequest("plain"))) if (ev.type === "text") break;
    await fake.lastRequest!.closed;
  });
});

describe("OpenAI-compatible catalogue and probe", () => {
  it("lists chat models from /v1/models, labelled from configuration", async () => {
    const models = await provider({ models: [{ id: "hybrid", label: "Hybrid 1", tiers: ["fast"] }] }).models();
    expect(models.map((m) => m.id)).toEqual(["plain", "thinker", "hybrid"]);
    expect(models[2]).toEqual({ id: "hybrid", label: "Hybrid 1", provider: "openai", tiers: ["fast"] });
  });

  it("falls back to configuration when the server has no model list", async () => {
    await fake.close();
    fake = await FakeOpenAi.start({ listModels: false });
    const models = await provider({ models: [{ id: "llama3.2", tiers: ["fast"] }] }).models();
    expect(models).toEqual([{ id: "llama3.2", label: "llama3.2", provider: "openai", tiers: ["fast"] }]);
  });

  it("probes each capability and reuses the cache file", async () => {
    const p = provider();
    expect(await p.probe("plain")).toMatchObject({
      supports_sampling: true,
      supports_effort: false,
      effort_max: false,
      reasoning: "none",
      default_reasoning: "off",
      forced_tool_choice_supported: false,
    });
    expect(await p.probe("thinker")).toMatchObject({
      supports_sampling: false,
      supports_effort: true,
      effort_max: false,
      efforts: ["low", "medium", "high", "xhigh"],
      reasoning: "always",
      default_reasoning: "low",
      max_tokens_field: "max_completion_tokens",
    });
    const hybrid = await p.probe("hybrid");
    expect(hybrid).toMatchObject({ supports_sampling: true, supports_effort: true, effort_max: true, reasoning: "adaptive" });
    expect(hybrid.forced_tool_choice_supported).toBeUndefined();
    const file = JSON.parse(await readFile(join(dir, "llm-probes.json"), "utf8"));
    expect(Object.keys(file.entries).sort()).toEqual(["openai:hybrid", "openai:plain", "openai:thinker"]);

    const before = fake.requests.length;
    const again = await provider().probe("thinker"); // a fresh provider reads the volume file
    expect(again.reasoning).toBe("always");
    expect(fake.requests.length).toBe(before);
  });

  it("a probe that cannot reach the model fails and caches nothing", async () => {
    await expect(provider().probe("missing")).rejects.toMatchObject({ status: 404 });
    await expect(readFile(join(dir, "llm-probes.json"), "utf8")).rejects.toThrow();
  });
});

describe("OpenAI-compatible settings mapping", () => {
  it("an unmeasured model gets no sampling and no reasoning fields", async () => {
    await collect(provider().stream(baseRequest("hybrid", { temperature: 0.3, topP: 0.8, effort: "high", reasoning: "high" })));
    const body = fake.lastRequest!.body;
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("top_p");
    expect(body).not.toHaveProperty("reasoning_effort");
    expect(body.max_tokens).toBe(64);
  });

  it("sampling only where supported; reasoning level and effort go to reasoning_effort", async () => {
    const p = provider();
    await p.probe("hybrid");
    await p.probe("thinker");
    await collect(p.stream(baseRequest("hybrid", { temperature: 0.3, topP: 0.8, reasoning: "medium", effort: "low" })));
    expect(fake.lastRequest!.body).toMatchObject({ temperature: 0.3, top_p: 0.8, reasoning_effort: "medium" });
    await collect(p.stream(baseRequest("hybrid", { reasoning: "off" })));
    expect(fake.lastRequest!.body.reasoning_effort).toBe("none");
    await collect(p.stream(baseRequest("hybrid", { reasoning: null, effort: "max" })));
    expect(fake.lastRequest!.body.reasoning_effort).toBe("max");

    await collect(p.stream(baseRequest("thinker", { temperature: 0.3, reasoning: "off", maxTokens: 99 })));
    const body = fake.lastRequest!.body;
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("max_tokens");
    expect(body.max_completion_tokens).toBe(99);
    expect(body.reasoning_effort).toBe("low"); // thinking cannot be off: the least allowed
    await collect(p.stream(baseRequest("thinker", { effort: "max" })));
    expect(fake.lastRequest!.body.reasoning_effort).toBe("xhigh"); // max clamped to the highest accepted
  });

  it("maps messages, tools and tool results; a refused forced tool choice becomes auto", async () => {
    const p = provider();
    await p.probe("plain");
    const tools = [{ name: "get_time", description: "Time now", parameters: { type: "object", properties: {} } }];
    await collect(
      p.stream(
        baseRequest("plain", {
          tools,
          toolChoice: { name: "get_time" },
          messages: [
            { role: "user", content: "time?" },
            { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "get_time", args: {} }] },
            { role: "tool_result", callId: "c1", name: "get_time", content: '{"time":"10:00"}' },
          ],
        }),
      ),
    );
    const body = fake.lastRequest!.body;
    expect(body.tool_choice).toBe("auto");
    expect(body.tools).toEqual([{ type: "function", function: tools[0] }]);
    expect(body.messages).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: "time?" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_time", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: '{"time":"10:00"}' },
    ]);
  });
});
