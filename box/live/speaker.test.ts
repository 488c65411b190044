// Readiness `tts_state` is live: every synthesis reports to the voice engine's health, so an
// engine failing after boot is seen (`failing`) and its next success makes it `ready` again.
import { describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { UpstreamHealth } from "../readiness/upstream-health.ts";
import { readiness } from "../readiness/service.ts";
import type { Utterance, VoiceEngine } from "../tts/engine.ts";
import { VoiceAccounts } from "../tts/accounts.ts";
import { Speaker } from "./speaker.ts";

const SILENCE: Utterance = { pcm: new Int16Array(160), sampleRate: 16000, phonemes: [], words: [], durationMs: 10 };

/** An engine that answers with whatever the test says next. */
function scriptedEngine(next: () => Utterance): VoiceEngine {
  return { id: "espeak", ready: true, synthesize: async () => next(), voices: () => [] };
}

describe("Speaker and the voice engine's health", () => {
  it("consecutive synthesis failures make tts failing with a reason; the next success makes it ready", async () => {
    let broken = true;
    const engine = scriptedEngine(() => {
      if (broken) throw new UpstreamError("espeak-ng: synthesis failed (out of memory)", 503, false);
      return SILENCE;
    });
    const health = new UpstreamHealth("espeak-ng", async () => undefined, { failuresToFail: 3, retryMs: 60_000 }, "ready");
    const speaker = new Speaker(VoiceAccounts.single(engine), 25, health);
    const sources = {
      llm: async () => ({ state: "ready" as const, detail: "" }),
      tts: async () => ({ state: health.state, detail: health.detail, provider: "espeak", origin: "box" as const, notice: "" }),
      transcribe: () => true,
    };
    for (let i = 0; i < 3; i++)
      await expect(speaker.synthesize("hello", { subject: null })).rejects.toMatchObject({ status: 502, code: "tts_failed" });
    const down = await readiness(sources, "s");
    expect(down).toMatchObject({ ready: false, tts: false, voice: false, tts_state: "failing" });
    expect(down.reason).toBe(
      "The voice engine is failing (the last 3 calls to espeak-ng failed; last error: espeak-ng: synthesis failed (out of memory)).",
    );

    broken = false;
    await speaker.synthesize("hello", { subject: null });
    expect(await readiness(sources, "s")).toMatchObject({ ready: true, tts: true, tts_state: "ready", reason: "" });
    health.close();
  });

  it("an unknown voice is the caller's mistake, not an engine failure", async () => {
    const engine = scriptedEngine(() => {
      throw new UpstreamError('espeak-ng has no voice "klingon"', 404, false);
    });
    const health = new UpstreamHealth("espeak-ng", async () => undefined, { failuresToFail: 1 }, "ready");
    const speaker = new Speaker(VoiceAccounts.single(engine), 25, health);
    await expect(speaker.synthesize("hello", { subject: null, voice: "klingon" })).rejects.toMatchObject({
      status: 400,
      code: "unknown_voice",
    });
    expect(health.state).toBe("ready");
    health.close();
  });
});
