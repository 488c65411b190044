import { afterEach, beforeEach, expect, it } from "vitest";
import { createProviders, listModels } from "./registry.ts";
import { FakeAnthropic } from "./testing/fake-anthropic.ts";
import { FakeOpenAi } from "./testing/fake-openai.ts";
import { collect, textOf, baseRequest } from "./testing/collect.ts";

let openai: FakeOpenAi;
let anthropic: FakeAnthropic;
beforeEach(async () => {
  openai = await FakeOpenAi.start({ models: [{ id: "llama3.2" }] });
  anthropic = await FakeAnthropic.start({ models: [{ id: "claude-haiku-4-5", label: "Claude Haiku 4.5" }] });
});
afterEach(async () => {
  await openai.close();
  await anthropic.close();
});

it("turns on only the providers whose base URL or region is set", () => {
  expect(createProviders({}).map((p) => p.id)).toEqual([]);
  expect(createProviders({ openai: { baseUrl: "" }, bedrock: { region: "ap-southeast-2" } }).map((p) => p.id)).toEqual(["bedrock"]);
  expect(
    createProviders({ openai: { baseUrl: openai.url }, anthropic: { baseUrl: anthropic.url }, bedrock: { region: "ap-southeast-2" } }).map(
      (p) => p.id,
    ),
  ).toEqual(["openai", "anthropic", "bedrock"]);
});

it("lists every provider's models with their provider and routes a model id to its provider", async () => {
  const providers = createProviders({ openai: { baseUrl: openai.url }, anthropic: { baseUrl: anthropic.url } });
  const listed = await listModels(providers);
  expect(listed.models).toEqual([
    { id: "llama3.2", label: "llama3.2", provider: "openai", tiers: [] },
    { id: "claude-haiku-4-5", label: "Claude Haiku 4.5", provider: "anthropic", tiers: [], released: "2025-01-01" },
  ]);
  anthropic.enqueue([{ text: "from claude" }]);
  expect(textOf(await collect(listed.byId.get("claude-haiku-4-5")!.stream(baseRequest("claude-haiku-4-5"))))).toBe("from claude");
});

it("a provider whose list fails is reported, the others still listed", async () => {
  const url = openai.url;
  await openai.close();
  const listed = await listModels(createProviders({ openai: { baseUrl: url }, anthropic: { baseUrl: anthropic.url } }));
  expect(listed.models.map((m) => m.id)).toEqual(["claude-haiku-4-5"]);
  expect(listed.failures).toEqual([{ provider: "openai", error: expect.objectContaining({ status: 502, retryable: true }) }]);
});
