// POST /api/talk on a streaming voice (the ElevenLabs protocol fake on a real socket): the talk is
// heard from the first audio; a stream cut mid-sentence plays what arrived, ends cleanly and answers
// 502 tts_failed; a voice that fails before any sound refuses the talk and queues nothing; an
// interrupt during a stalled stream answers ok and closes the provider's connection.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../auth/principal.ts";
import { FakeElevenLabs } from "../tts/elevenlabs/testing/fake-elevenlabs.ts";
import { ElevenLabsEngine } from "../tts/elevenlabs/elevenlabs-engine.ts";
import { VoiceAccounts } from "../tts/accounts.ts";
import { Speaker } from "./speaker.ts";
import { liveRoutes, type LiveRouteDeps } from "./routes.ts";
import { FrameRig } from "./testing/frame-rig.ts";

// The engines' own idle timeout is far beyond the test's: only the interrupt can close a stalled stream.
const KEY = "sk_el_talk_stream_0000";
const principal = { subject: "s", scope: "admin", digest: null, kind: "open", expiresAt: null } as unknown as Principal;

let fake: FakeElevenLabs;
let rig: FrameRig;
beforeAll(async () => {
  fake = await FakeElevenLabs.start({ apiKey: KEY, charsPerLine: 12, lineDelayMs: 80 });
});
afterAll(() => fake.close());
afterEach(() => rig?.close());

function talk(text: string) {
  rig = new FrameRig();
  const speaker = new Speaker(
    VoiceAccounts.single(new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY, timeoutMs: 120_000 })),
    25,
    null,
    null,
  );
  const deps = { sessions: { live: () => rig.session }, speaker } as unknown as LiveRouteDeps;
  const route = liveRoutes(deps).find((r) => r.path === "/api/talk")!;
  const request = new Request("http://box/api/talk", { method: "POST", body: JSON.stringify({ text }) });
  const answer = Promise.resolve(route.handler({ request, principal, params: {}, query: new URLSearchParams() }));
  void answer.catch(() => undefined);
  return answer;
}

describe("POST /api/talk on a streaming voice", () => {
  it("a stream cut mid-sentence: what arrived plays and ends cleanly, the talk answers 502 tts_failed", async () => {
    fake.fault = "cut";
    const answer = talk("The first sentence is cut off somewhere in its middle. The second is never asked for.");
    await expect(answer).rejects.toMatchObject({ status: 502, code: "tts_failed" });
    await rig.until(() => rig.events.some((e) => e.kind === "end"));
    expect(rig.events.map((e) => [e.kind, e.utterance.text, e.interrupted])).toEqual([
      ["start", "The first sentence is cut off somewhere in its middle.", false],
      ["end", "The first sentence is cut off somewhere in its middle.", false],
    ]);
    expect(rig.shots.some((s) => s.peak > 1000)).toBe(true);
    expect(fake.of("speech").at(-1)!.body).toMatchObject({ text: "The first sentence is cut off somewhere in its middle." });
    expect(rig.session.speaking).toBe(false);
  }, 30_000);

  it("a voice that fails before any sound refuses the talk (502 tts_failed) and queues nothing", async () => {
    fake.fault = "server_error";
    await expect(talk("Nothing of this is heard.")).rejects.toMatchObject({ status: 502, code: "tts_failed" });
    expect(rig.session.timeline.pending).toBe(0);
    expect(rig.session.speaking).toBe(false);
  }, 30_000);

  it("an interrupt during a stalled stream answers ok, closes the provider's connection and is silent at once", async () => {
    fake.fault = "stall";
    const asked = fake.of("speech").length;
    const answer = talk("This sentence stalls after its first words. So this one is never spoken.");
    await rig.until((s) => s.peak > 1000);
    await rig.until((s) => s.waiting);
    const request = fake.of("speech")[asked];
    rig.session.interrupt();
    expect(await answer).toEqual({ ok: true, spoken: "This sentence stalls after its first words. So this one is never spoken." });
    await request.finished;
    expect(request.closedEarly).toBe(true);
    expect(fake.of("speech")).toHaveLength(asked + 1); // the second sentence was never asked for
    const next = await rig.step();
    expect([next.peak, next.playing]).toEqual([0, null]);
    expect(rig.session.speaking).toBe(false);
  }, 30_000);
});
