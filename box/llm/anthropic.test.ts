import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { AnthropicProvider, ANTHROPIC_VERSION } from "./anthropic.ts";
import { ProbeCache } from "./probe-cache.ts";
import { baseRequest, collect, failure, textOf } from "./testing/collect.ts";
import { FakeAnthropic } from "./testing/fake-anthropic.ts";
import type { FakeModel } from "./testing/script.ts";

const MODELS: FakeModel[] = [
  // Budget thinking, sampling accepted (only without thinking), no effort.
  {
    id: "claude-budget",
    label: "Claude Budget",
    refuse: (b) => (b.output_config ? "output_config" : b.thinking?.type === "adaptive" ? "thinking.type" : undefined),
  },
  // Adaptive thinking with effort up to max; sampling refused; forced tool choice refused.
  {
    id: "claude-adaptive",
    label: "Claude Adaptive",
    refuse: (b) =>
      "temperature" in b
        ? "temperature"
        : b.tool_choice?.type === "tool"
          ? "tool_choice"
          : b.output_config?.effort === "xhigh"
            ? "effort"
            : undefined,
  },
  // No thinking at all.
  { id: "claude-small", refuse: (b) => (b.thinking || b.output_config ? "thinking" : undefined) },
];

let fake: FakeAnthropic;
let dir: string;
const provider = (extra: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}) =>
  new AnthropicProvider({ baseUrl: fake.url, apiKey: "sk-ant-test", cache: new ProbeCache({ dir }), ...extra });

beforeEach(async () => {
  fake = await FakeAnthropic.start({ models: MODELS, apiKey: "sk-ant-test", pageSize: 2 });
  dir = await mkdtemp(join(tmpdir(), "llm-anthropic-"));
});
afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe("Anthropic streaming", () => {
  it("streams text deltas in order, then usage and stop, with the API headers", async () => {
    fake.enqueue([{ text: "Good " }, { text: "day" }, { text: "!" }, { usage: { inputTokens: 21, outputTokens: 4 } }]);
    const events = await collect(provider().stream(baseRequest("claude-small")));
    expect(events).toEqual([
      { type: "text", text: "Good " },
      { type: "text", text: "day" },
      { type: "text", text: "!" },
      { type: "usage", inputTokens: 21, outputTokens: 4 },
      { type: "stop", reason: "end" },
    ]);
    expect(fake.lastRequest?.headers["x-api-key"]).toBe("sk-ant-test");
    expect(fake.lastRequest?.headers["anthropic-version"]).toBe(ANTHROPIC_VERSION);
    expect(fake.lastRequest?.body).toMatchObject({ model: "claude-small", system: "You are terse.", max_tokens: 64, stream: true });
  });

  it("joins frames split across socket reads", async () => {
    await fake.close();
    fake = await FakeAnthropic.start({ models: MODELS, fragment: true });
    fake.enqueue([{ text: "über" }, { text: " 東京" }]);
    expect(textOf(await collect(provider().stream(baseRequest("claude-small"))))).toBe("über 東京");
  });

  it("assembles tool_use input across input_json_delta and carries signed thinking for replay", async () => {
    fake.enqueue([
      { thinking: "The user wants weather." },
      { text: "Let me look." },
      { toolCall: { id: "toolu_1", name: "weather", args: { place: "Perth", units: ["c"] } } },
      { toolCall: { id: "toolu_2", name: "current_time", args: {} } },
    ]);
    const events = await collect(provider().stream(baseRequest("claude-budget")));
    const calls = events.filter((e) => e.type === "tool_call");
    expect(calls).toEqual([
      {
        type: "tool_call",
        id: "toolu_1",
        name: "weather",
        args: { place: "Perth", units: ["c"] },
        replay: [{ type: "thinking", thinking: "The user wants weather.", signature: "sig-0" }],
      },
      { type: "tool_call", id: "toolu_2", name: "current_time", args: {} },
    ]);
    expect(textOf(events)).toBe("Let me look.");
    expect(events.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
  });

  it("gives unparseable tool input as the raw string, flagged", async () => {
    fake.enqueue([{ toolCall: { name: "f", rawArgs: "{nope" } }]);
    const events = await collect(provider().stream(baseRequest("claude-small")));
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ args: "{nope", argsInvalid: true });
  });

  it("an empty generation stops with no text", async () => {
    fake.enqueue([]);
    const events = await collect(provider().stream(baseRequest("claude-small")));
    expect(events.map((e) => e.type)).toEqual(["usage", "stop"]);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "end" });
  });

  it("waits for a slow first token and maps max_tokens", async () => {
    fake.enqueue([{ delayMs: 400 }, { text: "slow" }, { stop: "max_tokens" }]);
    const events = await collect(provider().stream(baseRequest("claude-small")));
    expect(textOf(events)).toBe("slow");
    expect(events.at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
  });
});

describe("Anthropic failures", () => {
  it("an overloaded error event mid-stream is a retryable UpstreamError", async () => {
    fake.enqueue([{ text: "so far" }, { errorMidStream: { type: "overloaded_error", message: "Overloaded" } }]);
    const { error, events } = await failure(provider().stream(baseRequest("claude-small")));
    expect(textOf(events)).toBe("so far");
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 529, retryable: true });
  });

  it("an invalid_request_error mid-stream is not retryable", async () => {
    fake.enqueue([{ errorMidStream: { type: "invalid_request_error", message: "bad" } }]);
    expect((await failure(provider().stream(baseRequest("claude-small")))).error).toMatchObject({ status: 400, retryable: false });
  });

  it("a stream cut before message_stop is a retryable 502", async () => {
    fake.enqueue([{ text: "a" }, { disconnect: true }]);
    expect((await failure(provider().stream(baseRequest("claude-small")))).error).toMatchObject({ status: 502, retryable: true });
  });

  it("HTTP 429 and 529 are retryable, 400 and 401 are not", async () => {
    fake.enqueue([{ httpError: 429 }], [{ httpError: 529, message: "Overloaded" }], [{ httpError: 400 }]);
    expect((await failure(provider().stream(baseRequest("claude-small")))).error).toMatchObject({ status: 429, retryable: true });
    expect((await failure(provider().stream(baseRequest("claude-small")))).error).toMatchObject({ status: 529, retryable: true });
    expect((await failure(provider().stream(baseRequest("claude-small")))).error).toMatchObject({ status: 400, retryable: false });
    expect((await failure(provider({ apiKey: "nope" }).stream(baseRequest("claude-small")))).error).toMatchObject({
      status: 401,
      retryable: false,
    });
  });

  it("abort via signal stops the stream with the abort reason and closes the socket", async () => {
    fake.enqueue([{ text: "one" }, { delayMs: 5000 }, { text: "never" }]);
    const ctl = new AbortController();
    const reason = new Error("person interrupted");
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const ev of provider().stream(baseRequest("claude-small", { signal: ctl.signal }))) {
        if (ev.type === "text") seen.push(ev.text);
        ctl.abort(reason);
      }
    } catch (err) {
      caught = err;
    }
    expect(seen).toEqual(["one"]);
    expect(caught).toBe(reason);
    await fake.lastRequest!.closed;
  });
});

describe("Anthropic early exit", () => {
  it("breaking out of the loop closes the socket", async () => {
    fake.enqueue([{ text: "one" }, { delayMs: 5000 }, { text: "never" }]);
    for await (const ev of provider().stream(baseRequest("claude-small"))) if (ev.type === "text") break;
    await fake.lastRequest!.closed;
  });
});

describe("Anthropic catalogue and probe", () => {
  it("lists models across pages with display names", async () => {
    const models = await provider({ models: [{ id: "claude-small", tiers: ["fast"] }] }).models();
    expect(models).toEqual([
      { id: "claude-budget", label: "Claude Budget", provider: "anthropic", tiers: [], released: "2025-01-01" },
      { id: "claude-adaptive", label: "Claude Adaptive", provider: "anthropic", tiers: [], released: "2025-01-01" },
      { id: "claude-small", label: "claude-small", provider: "anthropic", tiers: ["fast"], released: "2025-01-01" },
    ]);
    expect(fake.requests.filter((r) => r.path.startsWith("/v1/models")).length).toBe(2);
  });

  it("probes each capability and reuses the cache file", async () => {
    const p = provider();
    expect(await p.probe("claude-budget")).toMatchObject({
      supports_sampling: true,
      supports_effort: false,
      reasoning: "budget",
      default_reasoning: "off",
    });
    const adaptive = await p.probe("claude-adaptive");
    expect(adaptive).toMatchObject({
      supports_sampling: false,
      supports_effort: true,
      effort_max: true,
      efforts: ["low", "medium", "high", "max"],
      reasoning: "adaptive",
      forced_tool_choice_supported: false,
    });
    expect(await p.probe("claude-small")).toMatchObject({ reasoning: "none", supports_effort: false, supports_sampling: true });
    const before = fake.requests.length;
    const fresh = provider();
    expect(await fresh.probe("claude-adaptive")).toEqual(adaptive);
    expect(fake.requests.length).toBe(before);
    const file = JSON.parse(await readFile(join(dir, "llm-probes.json"), "utf8"));
    expect(file.entries["anthropic:claude-adaptive"].endpoint).toBe(fake.url);
  });
});

describe("Anthropic settings mapping", () => {
  it("reasoning level becomes a thinking budget on top of max_tokens, with sampling dropped", async () => {
    const p = provider();
    await p.probe("claude-budget");
    await collect(p.stream(baseRequest("claude-budget", { reasoning: "medium", temperature: 0.2, maxTokens: 300 })));
    expect(fake.lastRequest!.body).toMatchObject({ thinking: { type: "enabled", budget_tokens: 4096 }, max_tokens: 4396 });
    expect(fake.lastRequest!.body).not.toHaveProperty("temperature");
    await collect(p.stream(baseRequest("claude-budget", { reasoning: "off", temperature: 0.2, topP: 0.9, effort: "high" })));
    const off = fake.lastRequest!.body;
    expect(off).toMatchObject({ temperature: 0.2, top_p: 0.9, max_tokens: 64 });
    expect(off).not.toHaveProperty("thinking");
    expect(off).not.toHaveProperty("output_config"); // effort unsupported on this model
  });

  it("adaptive models take the level as effort; explicit effort applies only while reasoning is unset", async () => {
    const p = provider();
    await p.probe("claude-adaptive");
    await collect(p.stream(baseRequest("claude-adaptive", { reasoning: "low", effort: "max", temperature: 0.5 })));
    expect(fake.lastRequest!.body).toMatchObject({ thinking: { type: "adaptive" }, output_config: { effort: "low" } });
    expect(fake.lastRequest!.body).not.toHaveProperty("temperature");
    await collect(p.stream(baseRequest("claude-adaptive", { reasoning: null, effort: "max" })));
    expect(fake.lastRequest!.body.output_config).toEqual({ effort: "max" });
    expect(fake.lastRequest!.body).not.toHaveProperty("thinking"); // default_reasoning is off
    await collect(p.stream(baseRequest("claude-adaptive", { reasoning: "bogus" as never, effort: "xhigh" })));
    expect(fake.lastRequest!.body.output_config).toEqual({ effort: "high" }); // xhigh refused in probe: clamped
  });

  it("maps tools, a forced choice, and tool results into one user turn", async () => {
    const p = provider();
    await p.probe("claude-small");
    const tools = [{ name: "lookup", description: "Look up", parameters: { type: "object", properties: { q: { type: "string" } } } }];
    await collect(
      p.stream(
        baseRequest("claude-small", {
          tools,
          toolChoice: { name: "lookup" },
          messages: [
            { role: "user", content: "find x and y" },
            {
              role: "assistant",
              content: "Looking.",
              toolCalls: [
                { id: "t1", name: "lookup", args: { q: "x" }, replay: [{ type: "thinking", thinking: "hm", signature: "s" }] },
                { id: "t2", name: "lookup", args: { q: "y" } },
              ],
            },
            { role: "tool_result", callId: "t1", name: "lookup", content: '{"x":1}' },
            { role: "tool_result", callId: "t2", name: "lookup", content: "not found", isError: true },
          ],
        }),
      ),
    );
    const body = fake.lastRequest!.body;
    expect(body.tools).toEqual([{ name: "lookup", description: "Look up", input_schema: tools[0].parameters }]);
    expect(body.tool_choice).toEqual({ type: "tool", name: "lookup" });
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "find x and y" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hm", signature: "s" },
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "t1", name: "lookup", input: { q: "x" } },
          { type: "tool_use", id: "t2", name: "lookup", input: { q: "y" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: '{"x":1}' },
          { type: "tool_result", tool_use_id: "t2", content: "not found", is_error: true },
        ],
      },
    ]);
  });
});
