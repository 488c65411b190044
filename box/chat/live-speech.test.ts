// A turn's live speech on a streaming voice (the ElevenLabs protocol fake on a real socket): each
// clause is heard from its first audio, clauses keep their order, and a clause whose stream is cut
// mid-way still counts as said (it started playing) while the turn goes on with the next.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeElevenLabs } from "../tts/elevenlabs/testing/fake-elevenlabs.ts";
import { ElevenLabsEngine } from "../tts/elevenlabs/elevenlabs-engine.ts";
import { VoiceAccounts } from "../tts/accounts.ts";
import { Speaker } from "../live/speaker.ts";
import { FrameRig } from "../live/testing/frame-rig.ts";
import { LiveSpeech } from "./live-speech.ts";

const KEY = "sk_el_live_speech_0000";
let fake: FakeElevenLabs;
beforeAll(async () => {
  fake = await FakeElevenLabs.start({ apiKey: KEY, charsPerLine: 12, lineDelayMs: 40 });
});
afterAll(() => fake.close());

describe("LiveSpeech on a streaming voice", () => {
  it("speaks the clauses in order as they stream; a clause cut mid-way is said, and the next one follows", async () => {
    const rig = new FrameRig();
    try {
      const speaker = new Speaker(VoiceAccounts.single(new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY })), 25, null, null);
      const speech = new LiveSpeech(rig.session, speaker, { subject: null }, "turn-1");
      fake.fault = "cut";
      speech.say("This first clause is cut off by the provider.", "neutral");
      const first = speech.settled(false);
      // The first clause is heard before the second is asked for.
      await rig.until((s) => s.peak > 1000);
      expect(fake.of("speech").map((r) => (r.body as { text: string }).text)).toEqual(["This first clause is cut off by the provider."]);
      fake.fault = null;
      await rig.until(() => rig.events.some((e) => e.kind === "end"));
      expect(await first).toEqual(["This first clause is cut off by the provider."]);

      const speech2 = new LiveSpeech(rig.session, speaker, { subject: null }, "turn-2");
      speech2.say("Then a second one.", "happy");
      speech2.say("And a third.", "neutral");
      const done = speech2.settled(false);
      await rig.until(() => rig.events.filter((e) => e.kind === "end").length === 3, 5000, 2);
      expect(await done).toEqual(["Then a second one.", "And a third."]);
      expect(rig.events.filter((e) => e.kind === "start").map((e) => [e.utterance.text, e.utterance.correlationId])).toEqual([
        ["This first clause is cut off by the provider.", "turn-1"],
        ["Then a second one.", "turn-2"],
        ["And a third.", "turn-2"],
      ]);
    } finally {
      rig.close();
    }
  }, 60_000);

  it("an interrupt of the session stops the clauses not asked for yet, even with no turn signal to abort", async () => {
    // A turn whose model has finished is no longer reached by its own abort: the session's interrupt
    // must still keep its later clauses from being requested and spoken.
    const rig = new FrameRig();
    try {
      const speaker = new Speaker(VoiceAccounts.single(new ElevenLabsEngine({ baseUrl: fake.url, apiKey: KEY })), 25, null, null);
      const before = fake.of("speech").length;
      const speech = new LiveSpeech(rig.session, speaker, { subject: null }, "turn-3");
      speech.say("A first clause that is heard.", "neutral");
      speech.say("A second clause after the interrupt.", "neutral");
      speech.say("A third clause after the interrupt.", "neutral");
      const done = speech.settled(false);
      await rig.until((s) => s.peak > 1000);
      rig.session.interrupt();
      for (let i = 0; i < 25; i++) await rig.step();
      expect(await done).toEqual(["A first clause that is heard."]);
      expect(
        fake
          .of("speech")
          .slice(before)
          .map((r) => (r.body as { text: string }).text),
      ).toEqual(["A first clause that is heard."]);
    } finally {
      rig.close();
    }
  }, 60_000);
});
