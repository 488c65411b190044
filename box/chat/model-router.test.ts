// Readiness `llm_state` is live: the router re-checks a provider that was down at boot, and sees
// one that starts failing after boot (every caller's replies report to it), against the OpenAI fake.
import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { createProviders } from "../llm/registry.ts";
import { baseRequest, collect, failure } from "../llm/testing/collect.ts";
import { FakeOpenAi } from "../llm/testing/fake-openai.ts";
import { readiness, type ReadinessSources } from "../readiness/service.ts";
import { ModelRouter, type RouterOptions } from "./model-router.ts";

let fake: FakeOpenAi | undefined;
let router: ModelRouter | undefined;
afterEach(async () => {
  router?.close();
  await fake?.close();
});

const NONE = { decls: [], probes: new Map() };
function routerAt(url: string, health: RouterOptions["health"]): ModelRouter {
  return new ModelRouter(createProviders({ openai: { baseUrl: url } }), NONE, { allowOffshore: true, inCountry: true, health });
}
const sourcesOf = (r: ModelRouter): ReadinessSources => ({
  llm: async () => r.stateFor("m1"),
  tts: async () => ({ state: "ready", detail: "", provider: "espeak", origin: "box", notice: "" }),
  transcribe: () => false,
});
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe("ModelRouter health", () => {
  it("a provider unreachable at boot is unavailable, then re-checked until it serves, without a restart", async () => {
    const port = await freePort();
    router = routerAt(`http://127.0.0.1:${port}`, { retryMs: 20, maxRetryMs: 100 });
    await router.load();
    expect(router.stateFor("m1").state).toBe("unavailable");
    expect(router.stateFor("m1").detail).toMatch(/^openai unreachable/);
    expect(router.providerFor("m1")).toBeNull();
    const before = await readiness(sourcesOf(router), "s");
    expect(before).toMatchObject({ ready: false, llm: false });
    expect(before.reason).toMatch(/^The language model is (unavailable|starting) \(.*openai/);

    fake = await new FakeOpenAi({ models: [{ id: "m1" }] }).listen(port);
    await vi.waitFor(() => expect(router!.stateFor("m1")).toEqual({ state: "ready", detail: "" }), { timeout: 5000, interval: 20 });
    expect(router.catalogue.map((r) => r.id)).toContain("m1");
    expect(await readiness(sourcesOf(router), "s")).toMatchObject({ ready: true, llm_state: "ready", reason: "" });
    expect(await collect(router.providerFor("m1")!.stream(baseRequest("m1")))).toContainEqual({ type: "text", text: "ok" });
  });

  it("a provider failing after boot is failing after consecutive failed replies, and ready on the next success", async () => {
    fake = await FakeOpenAi.start({ models: [{ id: "m1" }] });
    router = routerAt(fake.url, { failuresToFail: 3, retryMs: 60_000 });
    await router.load();
    expect(await readiness(sourcesOf(router), "s")).toMatchObject({ ready: true, llm_state: "ready" });
    const reply = () => router!.providerFor("m1")!.stream(baseRequest("m1"));

    // Refusals of one request say nothing about the provider.
    fake.enqueue([{ httpError: 400 }], [{ httpError: 400 }], [{ httpError: 400 }]);
    for (let i = 0; i < 3; i++) expect((await failure(reply())).error.status).toBe(400);
    expect(router.stateFor("m1").state).toBe("ready");

    fake.enqueue([{ httpError: 500, message: "boom" }], [{ httpError: 500, message: "boom" }]);
    for (let i = 0; i < 2; i++) expect((await failure(reply())).error).toBeInstanceOf(UpstreamError);
    expect(router.stateFor("m1").state).toBe("ready");
    fake.enqueue([{ httpError: 500, message: "boom" }]);
    await failure(reply());
    const down = await readiness(sourcesOf(router), "s");
    expect(down).toMatchObject({ ready: false, llm: false, llm_state: "failing", starting: false });
    expect(down.reason).toBe("The language model is failing (the last 3 calls to openai failed; last error: openai answered 500: boom).");

    // Still tried while failing, so the next success recovers it.
    expect(await collect(reply())).toContainEqual({ type: "text", text: "ok" });
    expect(await readiness(sourcesOf(router), "s")).toMatchObject({ ready: true, llm_state: "ready", llm_detail: "", reason: "" });
  });

  it("a failing provider is re-checked with one reply from the model that failed", async () => {
    fake = await FakeOpenAi.start({ models: [{ id: "m1" }] });
    router = routerAt(fake.url, { failuresToFail: 1, retryMs: 20 });
    await router.load();
    fake.enqueue([{ httpError: 503 }], [{ httpError: 503 }]);
    await failure(router.providerFor("m1")!.stream(baseRequest("m1")));
    expect(["failing", "starting"]).toContain(router.stateFor("m1").state);
    const sent = fake.requests.length;
    await vi.waitFor(() => expect(router!.stateFor("m1").state).toBe("ready"), { timeout: 5000, interval: 20 });
    const pings = fake.requests.slice(sent).filter((r) => r.path.startsWith("/v1/chat/completions"));
    expect(pings.length).toBeGreaterThanOrEqual(2); // the failed re-check, then the one that passed
    expect(pings.at(-1)!.body).toMatchObject({ model: "m1", max_tokens: 1 });
  });

  it("with no provider it is not configured, and says which settings would configure one", async () => {
    router = new ModelRouter([], NONE, { allowOffshore: true, inCountry: true });
    await router.load();
    expect(router.state).toBe("not_configured");
    const r = await readiness(sourcesOf(router), "s");
    expect(r.reason).toBe(
      "The language model is not configured (no provider is set: BOX_OPENAI_BASE_URL, BOX_ANTHROPIC_BASE_URL and BOX_BEDROCK_REGION are all empty).",
    );
  });
});
