// Integration: readiness of the voice engine the box boots on. A box booted with BOX_TTS=chatterbox
// and nothing listening at BOX_CHATTERBOX_URL is not ready (readiness `tts` false with a failure
// state and a sentence, the catalogue's `engine_ready` false); the engine is re-checked with the
// model providers' backoff and reported ready, without a restart, once a Chatterbox server is up.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { FakeChatterbox } from "../tts/chatterbox/testing/fake-chatterbox.ts";

const KEY = "boot_voice_key";
const H = { "x-api-key": KEY };
let port: number;
let cb: FakeChatterbox | undefined;
let box: RunningBox;

const get = async (path: string) => (await (await fetch(box.url + path, { headers: H })).json()) as any;

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  // Nothing listens at the engine's address yet; re-checks start 100 ms apart (doubling).
  box = await spawnBox({
    BOX_API_KEYS: KEY,
    BOX_TTS: "chatterbox",
    BOX_CHATTERBOX_URL: `http://127.0.0.1:${port}`,
    BOX_READINESS_RETRY_MS: "100",
    BOX_ASR: "none",
  });
});
afterAll(async () => {
  await box?.stop();
  await cb?.close();
});

describe("the boot voice engine's readiness", () => {
  it("Chatterbox unreachable at boot: tts false with a failure state and a sentence; engine_ready false", async () => {
    const s = await get("/api/chat/status");
    expect(s).toMatchObject({ ready: false, tts: false, voice: false, voice_provider: "chatterbox", voice_origin: "box" });
    // Unreachable since boot, or a re-check in flight; never "ready".
    expect(["unavailable", "starting"]).toContain(s.tts_state);
    expect(s.tts_detail).toMatch(/Chatterbox/);
    expect(s.reason).toMatch(/the voice engine is (unavailable|starting) \(.*Chatterbox/i);
    expect(s.reason).toMatch(/\.$/);

    const v = await get("/api/voices");
    expect(v.provider).toBe("chatterbox");
    expect(v.engine_ready).toBe(false);
    const group = v.groups.find((g: any) => g.provider === "chatterbox");
    expect(group.state).not.toBe("ready");
    expect(group.reason.length).toBeGreaterThan(10);
  });

  it("flips to ready, without a restart, once a Chatterbox server listens there", async () => {
    cb = await FakeChatterbox.start({ port });
    await vi.waitFor(
      async () => expect(await get("/api/chat/status")).toMatchObject({ tts: true, voice: true, tts_state: "ready", tts_detail: "" }),
      { timeout: 30_000, interval: 100 },
    );
    const v = await get("/api/voices?refresh=true");
    expect(v.engine_ready).toBe(true);
    expect(v.groups.find((g: any) => g.provider === "chatterbox").state).toBe("ready");
    // The probe is the server's own readiness route, not a synthesis.
    expect(cb.requests.some((r) => r.path === "/api/model-info")).toBe(true);
  });
});
