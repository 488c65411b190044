import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { BedrockProvider, DEFAULT_BEDROCK_MODELS } from "./bedrock.ts";
import { bedrockLabel, parseBedrockId } from "./bedrock-wire.ts";
import { ProbeCache } from "./probe-cache.ts";
import { baseRequest, collect, failure, textOf } from "./testing/collect.ts";
import { FakeBedrock } from "./testing/fake-bedrock.ts";
import type { FakeModel } from "./testing/script.ts";

const SONNET = "au.anthropic.claude-sonnet-4-5-20250929-v1:0";
const NOVA = "apac.amazon.nova-lite-v1:0";
const MODELS: FakeModel[] = [
  // Budget thinking, sampling, no effort field.
  {
    id: SONNET,
    refuse: (b) =>
      b.outputConfig ? "outputConfig" : b.additionalModelRequestFields?.thinking?.type === "adaptive" ? "thinking.type" : undefined,
  },
  // A non-Claude model: effort accepted up to high, forced tool choice refused.
  {
    id: NOVA,
    refuse: (b) =>
      ["xhigh", "max"].includes(b.outputConfig?.effort) ? "effort" : b.toolConfig?.toolChoice?.tool ? "toolChoice" : undefined,
  },
];

let fake: FakeBedrock;
let dir: string;
const provider = (extra: Partial<ConstructorParameters<typeof BedrockProvider>[0]> = {}) =>
  new BedrockProvider({
    region: "ap-southeast-2",
    endpoint: fake.url,
    credentials: { accessKeyId: "AKIDFAKE", secretAccessKey: "fake-secret" },
    cache: new ProbeCache({ dir }),
    ...extra,
  });

beforeEach(async () => {
  fake = await FakeBedrock.start({ models: MODELS });
  dir = await mkdtemp(join(tmpdir(), "llm-bedrock-"));
});
afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe("Bedrock ConverseStream", () => {
  it("streams text deltas in order from the event stream, then usage and stop", async () => {
    fake.enqueue([{ text: "G'day" }, { text: ", " }, { text: "mate" }, { usage: { inputTokens: 9, outputTokens: 3 } }]);
    const events = await collect(provider().stream(baseRequest(SONNET)));
    expect(events).toEqual([
      { type: "text", text: "G'day" },
      { type: "text", text: ", " },
      { type: "text", text: "mate" },
      { type: "usage", inputTokens: 9, outputTokens: 3 },
      { type: "stop", reason: "end" },
    ]);
    expect(fake.lastModelId).toBe(SONNET);
    expect(String(fake.lastRequest?.headers.authorization)).toContain("ap-southeast-2/bedrock/aws4_request");
  });

  it("decodes event-stream frames split across reads", async () => {
    await fake.close();
    fake = await FakeBedrock.start({ models: MODELS, fragment: true });
    fake.enqueue([{ text: "née " }, { toolCall: { name: "f", args: { v: "ü" } } }]);
    const events = await collect(provider().stream(baseRequest(SONNET)));
    expect(textOf(events)).toBe("née ");
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ args: { v: "ü" } });
  });

  it("assembles toolUse input across deltas and carries signed reasoning for replay", async () => {
    fake.enqueue([{ thinking: "need weather" }, { toolCall: { id: "tu1", name: "weather", args: { place: "Darwin" } } }]);
    const events = await collect(provider().stream(baseRequest(SONNET)));
    expect(events.find((e) => e.type === "tool_call")).toEqual({
      type: "tool_call",
      id: "tu1",
      name: "weather",
      args: { place: "Darwin" },
      replay: [{ reasoningContent: { reasoningText: { text: "need weather", signature: "sig-0" } } }],
    });
    expect(events.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
  });

  it("gives unparseable tool input as the raw string, flagged", async () => {
    fake.enqueue([{ toolCall: { name: "f", rawArgs: "[1," } }]);
    const events = await collect(provider().stream(baseRequest(SONNET)));
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ args: "[1,", argsInvalid: true });
  });

  it("an empty generation stops with no text; a slow first token still arrives", async () => {
    fake.enqueue([], [{ delayMs: 400 }, { text: "late" }, { stop: "max_tokens" }]);
    const empty = await collect(provider().stream(baseRequest(SONNET)));
    expect(empty.some((e) => e.type === "text")).toBe(false);
    expect(empty.at(-1)).toEqual({ type: "stop", reason: "end" });
    const slow = await collect(provider().stream(baseRequest(SONNET)));
    expect(textOf(slow)).toBe("late");
    expect(slow.at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
  });
});

describe("Bedrock failures", () => {
  it("a throttling exception mid-stream is a retryable 429", async () => {
    fake.enqueue([{ text: "part" }, { errorMidStream: { status: 429, message: "Too many tokens" } }]);
    const { error, events } = await failure(provider().stream(baseRequest(SONNET)));
    expect(textOf(events)).toBe("part");
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 429, retryable: true });
  });

  it("a model stream error is retryable, a validation exception mid-stream is not", async () => {
    fake.enqueue([{ errorMidStream: {} }], [{ errorMidStream: { status: 400 } }]);
    expect((await failure(provider().stream(baseRequest(SONNET)))).error).toMatchObject({ status: 502, retryable: true });
    expect((await failure(provider().stream(baseRequest(SONNET)))).error).toMatchObject({ status: 400, retryable: false });
  });

  it("HTTP 429 and 503 are retryable, 400 and 403 are not", async () => {
    fake.enqueue([{ httpError: 429 }], [{ httpError: 503 }], [{ httpError: 400 }], [{ httpError: 403 }]);
    for (const [status, retryable] of [
      [429, true],
      [503, true],
      [400, false],
      [403, false],
    ] as const) {
      expect((await failure(provider().stream(baseRequest(SONNET)))).error).toMatchObject({ name: "UpstreamError", status, retryable });
    }
  });

  it("a dropped connection and an unreachable endpoint are retryable 502s", async () => {
    fake.enqueue([{ text: "a" }, { disconnect: true }]);
    expect((await failure(provider().stream(baseRequest(SONNET)))).error).toMatchObject({ status: 502, retryable: true });
    const url = fake.url;
    await fake.close();
    expect((await failure(provider({ endpoint: url }).stream(baseRequest(SONNET)))).error).toMatchObject({ status: 502, retryable: true });
  });

  it("abort via signal stops the stream with the abort reason and closes the stream", async () => {
    fake.enqueue([{ text: "one" }, { delayMs: 5000 }, { text: "never" }]);
    const ctl = new AbortController();
    const reason = new Error("barge-in");
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const ev of provider().stream(baseRequest(SONNET, { signal: ctl.signal }))) {
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

describe("Bedrock early exit", () => {
  it("breaking out of the loop closes the stream", async () => {
    fake.enqueue([{ text: "one" }, { delayMs: 5000 }, { text: "never" }]);
    for await (const ev of provider().stream(baseRequest(SONNET))) if (ev.type === "text") break;
    await fake.lastRequest!.closed;
  });
});

describe("Bedrock catalogue and probe", () => {
  it("lists models from configuration with <geo>.<vendor>.<model> ids", async () => {
    expect(parseBedrockId(SONNET)).toEqual({ geo: "au", vendor: "anthropic", model: "claude-sonnet-4-5-20250929-v1:0" });
    expect(parseBedrockId("anthropic.claude-3-haiku-20240307-v1:0")).toEqual({
      vendor: "anthropic",
      model: "claude-3-haiku-20240307-v1:0",
    });
    expect(bedrockLabel(SONNET)).toBe("Claude Sonnet 4.5 (AU)");
    const models = await provider({ models: [{ id: NOVA, label: "Nova Lite", tiers: ["fast"] }] }).models();
    expect(models).toEqual([{ id: NOVA, label: "Nova Lite", provider: "bedrock", tiers: ["fast"] }]);
    const defaults = await provider().models();
    expect(defaults.map((m) => m.id)).toEqual(DEFAULT_BEDROCK_MODELS.map((m) => m.id));
    expect(defaults[0]).toEqual({
      id: SONNET,
      label: "Claude Sonnet 4.5 (AU)",
      provider: "bedrock",
      tiers: ["quality"],
      released: "2025-09-29",
    });
  });

  it("probes each capability and reuses the cache file", async () => {
    const p = provider();
    expect(await p.probe(SONNET)).toMatchObject({ supports_sampling: true, supports_effort: false, reasoning: "budget" });
    const nova = await p.probe(NOVA);
    expect(nova).toMatchObject({
      supports_effort: true,
      effort_max: false,
      efforts: ["low", "medium", "high"],
      reasoning: "none",
      forced_tool_choice_supported: false,
    });
    const sent = fake.requests.length;
    expect(await provider().probe(NOVA)).toEqual(nova);
    expect(fake.requests.length).toBe(sent);
    const file = JSON.parse(await readFile(join(dir, "llm-probes.json"), "utf8"));
    expect(Object.keys(file.entries).sort()).toEqual([`bedrock:${NOVA}`, `bedrock:${SONNET}`]);
  });
});

describe("Bedrock settings mapping", () => {
  it("unmeasured: no sampling; measured: inferenceConfig sampling, thinking budget, no forced choice while thinking", async () => {
    await collect(provider().stream(baseRequest(SONNET, { temperature: 0.4, reasoning: "high" })));
    expect(fake.lastRequest!.body.inferenceConfig).toEqual({ maxTokens: 64 });
    expect(fake.lastRequest!.body).not.toHaveProperty("additionalModelRequestFields");

    const p = provider();
    await p.probe(SONNET);
    await collect(p.stream(baseRequest(SONNET, { temperature: 0.4, topP: 0.7, reasoning: "off" })));
    expect(fake.lastRequest!.body.inferenceConfig).toEqual({ maxTokens: 64, temperature: 0.4, topP: 0.7 });
    const tools = [{ name: "lookup", description: "Look up", parameters: { type: "object", properties: {} } }];
    await collect(p.stream(baseRequest(SONNET, { temperature: 0.4, reasoning: "low", tools, toolChoice: { name: "lookup" } })));
    const body = fake.lastRequest!.body;
    expect(body.inferenceConfig).toEqual({ maxTokens: 64 + 1024 });
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 1024 } });
    expect(body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: "lookup", description: "Look up", inputSchema: { json: tools[0].parameters } } }],
    });
  });

  it("effort goes to outputConfig, clamped to what the model accepted; refused forced choice becomes auto", async () => {
    const p = provider();
    await p.probe(NOVA);
    const tools = [{ name: "lookup", description: "Look up", parameters: { type: "object", properties: {} } }];
    await collect(p.stream(baseRequest(NOVA, { effort: "max", tools, toolChoice: "required" })));
    expect(fake.lastRequest!.body.outputConfig).toEqual({ effort: "high" });
    expect(fake.lastRequest!.body.toolConfig.toolChoice).toEqual({ auto: {} });
  });

  it("maps assistant tool use and tool results into alternating turns", async () => {
    await collect(
      provider().stream(
        baseRequest(SONNET, {
          messages: [
            { role: "user", content: "weather?" },
            { role: "assistant", content: "", toolCalls: [{ id: "tu1", name: "weather", args: { place: "Cairns" } }] },
            { role: "tool_result", callId: "tu1", name: "weather", content: '{"temp":31}' },
            { role: "user", content: "and tomorrow?" },
          ],
        }),
      ),
    );
    expect(fake.lastRequest!.body.system).toEqual([{ text: "You are terse." }]);
    expect(fake.lastRequest!.body.messages).toEqual([
      { role: "user", content: [{ text: "weather?" }] },
      { role: "assistant", content: [{ toolUse: { toolUseId: "tu1", name: "weather", input: { place: "Cairns" } } }] },
      {
        role: "user",
        content: [{ toolResult: { toolUseId: "tu1", content: [{ text: '{"temp":31}' }], status: "success" } }, { text: "and tomorrow?" }],
      },
    ]);
  });
});
