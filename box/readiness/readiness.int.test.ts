// Integration: readiness is live on the real box. A model provider unreachable at boot is
// re-checked until it serves (status `ready`, /api/chat 200, no restart); one that goes away
// after boot is reported not ready after failed replies, and ready again once it is back.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FakeOpenAi } from "../llm/testing/fake-openai.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";

const KEY = "ready_key";
const H = { "x-api-key": KEY, "content-type": "application/json" };
let port: number;
let fake: FakeOpenAi | undefined;
let box: RunningBox;

const status = async () => (await (await fetch(box.url + "/api/chat/status", { headers: H })).json()) as any;
const chat = (message: string) => fetch(box.url + "/api/chat", { method: "POST", headers: H, body: JSON.stringify({ message }) });
const providerUp = async () =>
  (fake = await new FakeOpenAi({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "Back again." }] }).listen(port));

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  // Nothing listens at the provider's address yet; re-checks start 100 ms apart (doubling).
  box = await spawnBox({ BOX_API_KEYS: KEY, BOX_OPENAI_BASE_URL: `http://127.0.0.1:${port}`, BOX_READINESS_RETRY_MS: "100" });
});
afterAll(async () => {
  await box?.stop();
  await fake?.close();
});

describe("live readiness", () => {
  it("a provider unreachable at boot: unavailable and /api/chat 503, then ready and 200 once it is up", async () => {
    const down = await status();
    expect(down).toMatchObject({ ready: false, llm: false, tts: true });
    expect(["unavailable", "starting"]).toContain(down.llm_state);
    expect(down.reason).toMatch(/^The language model is (unavailable|starting) \(.*openai/);
    expect(down.reason).not.toMatch(/[.?!,;:]\s*[.?!,;:]/); // the old "?." is gone
    expect((await chat("hello")).status).toBe(503);

    await providerUp();
    await vi.waitFor(
      async () =>
        expect(await status()).toMatchObject({ ready: true, llm: true, llm_state: "ready", llm_detail: "", starting: false, reason: "" }),
      { timeout: 20_000, interval: 100 },
    );
    const res = await chat("hello");
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).reply).toBe("Back again.");
  });

  it("a provider that goes away after boot: failed replies (502) make it not ready; it recovers once back", async () => {
    await fake!.close();
    for (let i = 0; i < 3; i++) expect((await chat("are you there?")).status).toBe(502);
    const down = await status();
    expect(down).toMatchObject({ ready: false, llm: false });
    // Failing, or starting while a re-check is in flight; never the boot-time "unavailable".
    expect(["failing", "starting"]).toContain(down.llm_state);
    expect(down.reason).toMatch(/^The language model is (failing|starting) \(.*openai/);

    await providerUp();
    await vi.waitFor(async () => expect(await status()).toMatchObject({ ready: true, llm_state: "ready", reason: "" }), {
      timeout: 20_000,
      interval: 100,
    });
    expect((await chat("hello")).status).toBe(200);
  });
});
