// The boot engine's readiness probe (issue 22 item 10) under the same health tracker as the model
// providers: a Chatterbox server that is not there, or is there without its model, is not ready,
// with a sentence saying why; once it answers with its model loaded, it is.
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { UpstreamHealth } from "../readiness/upstream-health.ts";
import { bootProbe } from "./boot-probe.ts";
import { ChatterboxEngine } from "./chatterbox/chatterbox-engine.ts";
import { FakeChatterbox } from "./chatterbox/testing/fake-chatterbox.ts";
import type { VoiceEngine } from "./engine.ts";

let fake: FakeChatterbox | undefined;
let health: UpstreamHealth | undefined;
afterEach(async () => {
  health?.close();
  await fake?.close();
  fake = undefined;
});

/** A loopback port nothing listens on. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

// Re-checks far apart: each step below is driven by an explicit check().
const track = (engine: VoiceEngine) => (health = new UpstreamHealth(engine.id, bootProbe(engine), { retryMs: 600_000 }));

describe("bootProbe", () => {
  it("Chatterbox not listening: unavailable, naming the server; ready once it is up, without a synthesis", async () => {
    const port = await freePort();
    const h = track(new ChatterboxEngine({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2_000 }));
    expect(h.state).toBe("starting");
    await h.check();
    expect(h.state).toBe("unavailable");
    expect(h.detail).toMatch(/^Chatterbox could not be reached at 127\.0\.0\.1:\d+ for the model-info request/);

    fake = await FakeChatterbox.start({ port });
    await h.check();
    expect([h.state, h.detail]).toEqual(["ready", ""]);
    expect(fake.requests.map((r) => r.path)).toEqual(["/api/model-info"]);
  });

  it("Chatterbox up without its model loaded is not ready, and says so", async () => {
    fake = await FakeChatterbox.start();
    fake.set({ modelLoaded: false });
    const h = track(new ChatterboxEngine({ baseUrl: fake.url, timeoutMs: 2_000 }));
    await h.check();
    expect(h.state).toBe("unavailable");
    expect(h.detail).toBe("Chatterbox answers but has not loaded its model yet");
    fake.set({ modelLoaded: true });
    await h.check();
    expect(h.state).toBe("ready");
  });

  it("a hosted engine is checked with its key check; the embedded one by saying a word", async () => {
    const said: string[] = [];
    let keyChecks = 0;
    const hosted = {
      id: "hosted",
      ready: true,
      voices: () => [],
      synthesize: async (t: string) => (said.push(t), null as never),
      checkKey: async () => void keyChecks++,
    };
    await track(hosted).check();
    expect([health!.state, keyChecks, said]).toEqual(["ready", 1, []]);
    health!.close();
    const embedded = { id: "espeak", ready: true, voices: () => [], synthesize: async (t: string) => (said.push(t), null as never) };
    await track(embedded).check();
    expect([health!.state, said]).toEqual(["ready", ["ready"]]);
  });
});
