// The catalogue's own rules with engines made here: states and reasons per group, flattening
// order, the cache (5 minutes per provider and caller, a failure 30 seconds) on a clock the test
// moves, `refresh`, parallel fetches each with its own timeout.
import { describe, expect, it } from "vitest";
import { VoiceCatalogue, type ProviderSlot } from "./catalogue.ts";
import { VoiceProviderError, type VoiceEngine, type VoiceRow } from "./engine.ts";

const row = (provider: string, id: string, name: string): VoiceRow => ({
  provider,
  id,
  name,
  language: "en",
  gender: "female",
  description: "",
});

function engine(id: string, voices: () => VoiceRow[] | Promise<VoiceRow[]>, ready = true): VoiceEngine & { calls: number } {
  const e = {
    id,
    ready,
    calls: 0,
    synthesize: () => Promise.reject(new Error("not here")),
    voices: () => {
      e.calls++;
      return voices();
    },
  };
  return e;
}

const slot = (e: VoiceEngine | null, over: Partial<ProviderSlot> = {}): ProviderSlot => ({
  provider: e?.id ?? "x",
  label: e?.id ?? "x",
  local: false,
  engine: e,
  account: "box",
  ...over,
});

describe("VoiceCatalogue", () => {
  it("says ready, empty, starting, not configured, and each failure state with its one-line reason", async () => {
    const cat = new VoiceCatalogue();
    const groups = await cat.groups([
      slot(
        engine("espeak", () => [row("espeak", "en-us", "English (America)")]),
        { local: true, recommended: "en-us" },
      ),
      slot(engine("chatterbox", () => [])),
      slot(engine("slowstart", () => [], false)),
      slot(null, {
        provider: "cartesia",
        label: "Cartesia",
        missing: { state: "key_problem", reason: "No Cartesia key is saved and the box has none." },
      }),
      slot(
        engine("elevenlabs", () => Promise.reject(new VoiceProviderError("ElevenLabs rejected the key (401)", 401, false, "key_problem"))),
      ),
      slot(
        engine("down", () =>
          Promise.reject(new VoiceProviderError("down could not be reached: connection refused", 0, true, "unreachable")),
        ),
      ),
      slot(engine("odd", () => Promise.reject(new Error("bad json")))),
    ]);
    expect(groups.map((g) => [g.provider, g.state])).toEqual([
      ["espeak", "ready"],
      ["chatterbox", "empty"],
      ["slowstart", "starting"],
      ["cartesia", "key_problem"],
      ["elevenlabs", "key_problem"],
      ["down", "unreachable"],
      ["odd", "refused"],
    ]);
    expect(groups[0]).toMatchObject({
      reason: "",
      local: true,
      voices: [{ id: "en-us", preview: "/api/voice/preview?provider=espeak&voice=en-us", recommended: true }],
    });
    for (const g of groups.slice(1)) {
      expect(g.reason, g.provider).toMatch(/\S.*[.!?]$/);
      expect(g.reason).not.toMatch(/\n/);
    }
    expect(groups[4].reason).toBe("ElevenLabs rejected the key (401).");
  });

  it("flattens the built-in engine's voices first, then by name", () => {
    const g = (provider: string, names: string[]) => ({
      provider,
      label: provider,
      state: "ready" as const,
      reason: "",
      local: false,
      voices: names.map((n) => ({ ...row(provider, n.toLowerCase(), n), preview: "", recommended: false })),
    });
    const rows = VoiceCatalogue.flatten([g("elevenlabs", ["Zoe", "Adam"]), g("espeak", ["Welsh", "Afrikaans"])], "espeak");
    expect(rows.map((r) => `${r.provider}:${r.name}`)).toEqual(["espeak:Afrikaans", "espeak:Welsh", "elevenlabs:Adam", "elevenlabs:Zoe"]);
  });

  it("caches a good answer 5 minutes per provider and caller, a failure 30 seconds; refresh refetches", async () => {
    let t = 1_000_000;
    const cat = new VoiceCatalogue({ now: () => t });
    const good = engine("elevenlabs", () => [row("elevenlabs", "v1", "Rachel")]);
    let fail = true;
    const flaky = engine("cartesia", () =>
      fail ? Promise.reject(new VoiceProviderError("Cartesia answered 500", 500, true, "refused")) : [row("cartesia", "c1", "Kira")],
    );
    const mine = slot(good, { account: "key:alice" });
    const hers = slot(good, { account: "key:bob" });
    await cat.groups([mine, slot(flaky)]);
    expect([good.calls, flaky.calls]).toEqual([1, 1]);
    t += 29_000;
    await cat.groups([mine, slot(flaky)]);
    expect([good.calls, flaky.calls]).toEqual([1, 1]);
    await cat.groups([hers]); // another caller's account: its own entry
    expect(good.calls).toBe(2);
    t += 1_001; // 30 s after the failure
    fail = false;
    const after = await cat.groups([mine, slot(flaky)]);
    expect([good.calls, flaky.calls]).toEqual([2, 2]);
    expect(after[1].state).toBe("ready");
    t += 5 * 60_000 - 30_001 - 1; // just under 5 minutes since the first good answer
    await cat.groups([mine]);
    expect(good.calls).toBe(2);
    t += 2;
    await cat.groups([mine]);
    expect(good.calls).toBe(3);
    await cat.groups([mine], true);
    expect(good.calls).toBe(4);
  });

  it("fetches providers in parallel, each with its own timeout; a hung one is timed_out, the others answer", async () => {
    const cat = new VoiceCatalogue({ timeoutMs: 300 });
    let started = 0;
    const startedWhenAnswered: number[] = [];
    const slow = (id: string) =>
      engine(id, () => (started++, new Promise((r) => setTimeout(() => (startedWhenAnswered.push(started), r([row(id, "1", id)])), 50))));
    const hung = engine("chatterbox", () => (started++, new Promise<VoiceRow[]>(() => {})));
    const groups = await cat.groups([slot(hung), slot(slow("a")), slot(slow("b"))]);
    expect(groups.map((g) => g.state)).toEqual(["timed_out", "ready", "ready"]);
    expect(groups[0].reason).toBe("chatterbox did not list its voices within 0.3 s.");
    // In parallel: every fetch had started before the first one answered.
    expect(startedWhenAnswered).toEqual([3, 3]);
  });
});
