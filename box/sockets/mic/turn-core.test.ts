// Tests the voice socket's turn-taking core (turn-core.ts) in virtual time: a microphone of VAD
// windows through the real VAD segmenter, the recogniser's words, a wall clock that only moves when
// the test says, and an avatar that speaks until interrupted. Every position asserted is audio time.
import { describe, expect, it } from "vitest";
import type { ConfirmGate } from "../../chat/confirm-gate.ts";
import { VadSegmenter, WINDOW_MS } from "../../stt/vad-segmenter.ts";
import { BARGE_RULES } from "./barge-in.ts";
import { ENERGY_QUIET_MS, VAD_MIN_SILENCE_MS } from "./end-of-turn.ts";
import { EOT_BACKSTOP_MS, TurnCore } from "./turn-core.ts";
import type { TurnAction, TurnTimer } from "./turn-actions.ts";
import { EOT } from "./turn-taking.ts";

const VOICE = 0.95;
const QUIET = 0.02;

function rig(o: { avatarSpeaking?: boolean; speculative?: boolean } = {}) {
  let wall = 0;
  let audioMs = 0;
  const log: { at: number; a: TurnAction }[] = [];
  const timers = new Map<TurnTimer, number>();
  const avatar = { speaking: o.avatarSpeaking ?? false, held: false };
  const seg = new VadSegmenter({ probabilities: true, minSilenceMs: VAD_MIN_SILENCE_MS });
  const senses = () => ({ vadSpeaking: seg.speaking, avatarSpeaking: avatar.speaking });
  // What the socket does with each action, the turn engine left out: a turn starts at once (a
  // speculative one once confirmed) and the avatar stops on an interrupt.
  const core: TurnCore = new TurnCore({ speculative: o.speculative ?? true, bargePause: true, now: () => wall }, (a) => {
    log.push({ at: audioMs, a });
    if (a.type === "confirm") a.gate.confirm();
    else if (a.type === "drop") a.gate.drop();
    else if (a.type === "turn") core.turnStarted(a.message);
    else if (a.type === "speculate") a.gate.hold(() => core.turnStarted(a.message));
    else if (a.type === "arm") timers.set(a.timer, wall + a.ms);
    else if (a.type === "disarm") timers.delete(a.timer);
    else if (a.type === "hold_speech") avatar.held = true;
    else if (a.type === "release_speech") avatar.held = false;
    else if (a.type === "interrupt") Object.assign(avatar, { speaking: false, held: false });
  });
  const fireDue = () => {
    for (const [timer, due] of [...timers]) if (due <= wall && timers.delete(timer)) core.fired(timer, senses());
  };
  /** One VAD window of audio (voice: a loud square wave; quiet: silence) scored `p`; wall time moves with it. */
  const window = (p: number) => {
    core.audio(Int16Array.from({ length: 512 }, (_, i) => (p >= 0.5 ? (i % 2 ? 8000 : -8000) : 0)));
    audioMs += WINDOW_MS;
    wall += WINDOW_MS;
    for (const e of seg.push(p)) core.vad(e, senses());
    core.vadDone(senses());
    fireDue();
  };
  const frames = (type: string) => log.filter((l) => l.a.type === "send" && l.a.frame.type === type);
  const acts = (type: TurnAction["type"]) => log.filter((l) => l.a.type === type);
  return {
    core,
    avatar,
    log,
    frames,
    acts,
    get audioMs() {
      return audioMs;
    },
    /** `ms` of audio, whole windows, each scored `p` (or voice / quiet). */
    audio(ms: number, p: boolean | number) {
      for (let t = 0; t < ms; t += WINDOW_MS) window(typeof p === "number" ? p : p ? VOICE : QUIET);
    },
    /** Wall time passing with no audio (the client stopped sending). */
    wait(ms: number) {
      wall += ms;
      fireDue();
    },
    partial: (text: string) => core.partialWords(text, senses()),
    final: (text: string) => core.finalWords(text, senses()),
    /** 320 ms of room tone, 640 ms of voice with these words recognised in it; the voice ends at 960. */
    utterance(text: string) {
      this.audio(320, false);
      this.audio(320, true);
      this.partial(text);
      this.audio(320, true);
      return audioMs;
    },
    /** The `turn` and `speculate` requests, in order: the words each answers. */
    requests: () => log.filter((l) => l.a.type === "turn" || l.a.type === "speculate").map((l) => (l.a as { message: string }).message),
    gates: () => acts("speculate").map((l) => (l.a as { gate: ConfirmGate }).gate),
  };
}

describe("end of turn in audio time", () => {
  for (const [text, wait, reason] of [
    ["please book a table for two", EOT.complete, "complete"],
    ["Is it open?", EOT.terminal, "complete"],
    ["I would like a table,", EOT.comma, "unfinished"],
    ["book a table and", EOT.conjunction, "unfinished"],
    ["I was thinking um", EOT.filler, "filler"],
  ] as const) {
    it(`"${text}": the turn is taken ${wait} ms of silence after the voice ended`, () => {
      const r = rig({ speculative: false });
      const voiceEnd = r.utterance(text);
      r.audio(wait + 400, false);
      const [final] = r.frames("final");
      expect(final.a).toEqual({ type: "send", frame: { type: "final", text, continues: false } });
      // The VAD scores whole windows: the turn comes at the first window past the wait.
      expect(final.at - voiceEnd).toBeGreaterThanOrEqual(wait);
      expect(final.at - voiceEnd).toBeLessThanOrEqual(wait + WINDOW_MS);
      expect(r.frames("endpoint").at(-1)!.a).toMatchObject({ frame: { reason, wait_ms: wait } });
      expect(r.requests()).toEqual([text]);
      // The final, then the pause ends, then the turn; the recogniser is told to settle its partial.
      const order = r.log.filter((l) => l.at === final.at).map((l) => l.a.type);
      expect(order).toEqual(["disarm", "forget_voice_history", "finalize_words", "send", "end_pause", "turn"]);
    });
  }

  it("a client that stops sending audio gets its turn from the wall-clock backstop", () => {
    const r = rig({ speculative: false });
    r.utterance("please book a table for two");
    r.audio(VAD_MIN_SILENCE_MS, false); // the VAD ends the stretch: the wait is armed, then the audio stops
    expect(r.frames("final")).toEqual([]);
    r.wait(EOT.complete);
    expect(r.frames("final"), "the backstop's margin has not run out").toEqual([]);
    r.wait(EOT_BACKSTOP_MS);
    expect(r.frames("final").map((l) => l.a)).toEqual([
      { type: "send", frame: { type: "final", text: "please book a table for two", continues: false } },
    ]);
  });

  it("a cough (voice shorter than speech) with no words takes no turn", () => {
    const r = rig();
    r.audio(320, false);
    r.audio(96, true);
    r.audio(2000, false);
    expect(r.requests()).toEqual([]);
    expect(r.frames("final")).toEqual([]);
  });

  it("a lone murmur clears the caption instead of taking a turn", () => {
    const r = rig();
    r.utterance("mm-hmm");
    r.audio(EOT.filler + 400, false); // a murmur holds like a filler
    expect(r.frames("endpoint").at(-1)!.a).toMatchObject({ frame: { reason: "filler" } });
    expect(r.requests()).toEqual([]);
    expect(r.frames("final")).toEqual([]);
    expect(r.frames("caption_clear")).toHaveLength(1);
  });
});

describe("speculation", () => {
  it("starts on settled, complete words at the voice's first quiet window; confirmed at the end of turn: one request", () => {
    const r = rig();
    const voiceEnd = r.utterance("hello there");
    r.audio(WINDOW_MS, false);
    expect(r.acts("speculate").map((l) => [l.at, (l.a as { message: string }).message])).toEqual([[voiceEnd + WINDOW_MS, "hello there"]]);
    expect(r.frames("final"), "nothing shows yet").toEqual([]);
    r.audio(400, false);
    expect(r.requests()).toEqual(["hello there"]);
    expect(r.gates()[0].state).toBe("confirmed");
    const [final] = r.frames("final");
    expect(r.log.indexOf(final)).toBeLessThan(r.log.indexOf(r.acts("confirm")[0]));
  });

  it("starts as the audio that makes the energy quiet arrives, before the VAD's next window", () => {
    const r = rig();
    r.utterance("hello there");
    // 10 ms chunks of silence the VAD has not scored yet (a window waits for 512 samples).
    let chunks = 0;
    while (r.acts("speculate").length === 0 && chunks < 10) {
      r.core.audio(new Int16Array(160));
      chunks++;
    }
    expect(chunks * 10).toBeGreaterThanOrEqual(ENERGY_QUIET_MS);
    expect(chunks * 10).toBeLessThanOrEqual(ENERGY_QUIET_MS + 10);
    expect(r.requests()).toEqual(["hello there"]);
  });

  it("unfinished words start none", () => {
    const r = rig();
    r.utterance("book a table and");
    r.audio(EOT.conjunction + 100, false);
    expect(r.acts("speculate")).toEqual([]);
    expect(r.requests()).toEqual(["book a table and"]);
  });

  it("words still changing start none until they settle", () => {
    const r = rig();
    r.audio(320, false);
    r.audio(640, true);
    for (const w of ["please", "please book", "please book a table"]) {
      r.partial(w);
      r.audio(WINDOW_MS, false);
    }
    expect(r.acts("speculate"), "no request on words still changing").toEqual([]);
    r.audio(EOT.speculationSettle + WINDOW_MS, false);
    expect(r.requests()).toEqual(["please book a table"]);
  });

  it("is dropped when the voice comes back as long as speech; the turn answers all the words", () => {
    const r = rig();
    r.utterance("hello there");
    r.audio(WINDOW_MS, false);
    const [first] = r.gates();
    r.audio(BARGE_RULES.confirmSpeechMs - WINDOW_MS, true);
    expect(first.state, "shorter than speech: kept").toBe("pending");
    r.audio(2 * WINDOW_MS, true);
    expect(first.state).toBe("dropped");
    r.partial("hello there my friend");
    r.audio(128, true);
    r.audio(600, false);
    expect(r.requests()).toEqual(["hello there", "hello there my friend"]);
    expect(r.gates().map((g) => g.state)).toEqual(["dropped", "confirmed"]);
    expect(r.frames("final").map((l) => l.a)).toEqual([
      { type: "send", frame: { type: "final", text: "hello there my friend", continues: false } },
    ]);
  });

  it("is dropped at once when the words change", () => {
    const r = rig();
    r.utterance("hello there");
    r.audio(WINDOW_MS, false);
    r.partial("hello there my");
    expect(r.gates()[0].state).toBe("dropped");
    expect(r.acts("speculate"), "none on the unfinished new words").toHaveLength(1);
  });
});

describe("barge-in over the speaking avatar", () => {
  it("a cough holds the avatar and lets it go on: no interrupt, no turn", () => {
    const r = rig({ avatarSpeaking: true });
    r.audio(320, false);
    r.audio(64, true);
    expect(r.acts("hold_speech")).toHaveLength(1);
    r.audio(400, false);
    expect(r.acts("release_speech")).toHaveLength(1);
    expect(r.acts("interrupt")).toEqual([]);
    expect(r.requests()).toEqual([]);
  });

  it("a backchannel ('yeah') resumes the avatar; its late words take no turn", () => {
    const r = rig({ avatarSpeaking: true });
    r.audio(320, false);
    r.audio(320, true);
    r.partial("yeah");
    r.audio(400, false);
    r.final("yeah");
    r.audio(1000, false);
    expect(r.acts("release_speech")).toHaveLength(1);
    expect(r.acts("interrupt")).toEqual([]);
    expect(r.frames("state")).toEqual([]);
    expect(r.requests()).toEqual([]);
    const endpoints = r.frames("endpoint").map((l) => (l.a.type === "send" && l.a.frame.type === "endpoint" ? l.a.frame.reason : null));
    expect(
      endpoints.filter((reason) => reason !== "speaking"),
      "no end of turn is scheduled while held",
    ).toEqual([]);
    r.avatar.speaking = false; // the reply ends; the next words are the person's own
    r.utterance("what time is it");
    r.audio(600, false);
    expect(r.frames("final").map((l) => l.a)).toEqual([
      { type: "send", frame: { type: "final", text: "what time is it", continues: false } },
    ]);
  });

  it("speech that wants the floor interrupts; the last turn's words join the new ones", () => {
    const r = rig();
    r.utterance("tell me about the menu");
    r.audio(600, false);
    r.core.turnEnded();
    r.avatar.speaking = true; // the reply plays
    r.audio(320, false);
    r.audio(BARGE_RULES.confirmSpeechMs - WINDOW_MS, true);
    r.partial("wait");
    expect(r.acts("hold_speech")).toHaveLength(1);
    expect(r.acts("interrupt"), "held, not yet interrupted").toEqual([]);
    r.audio(2 * WINDOW_MS, true);
    expect(r.acts("interrupt")).toHaveLength(1);
    expect(r.frames("state").map((l) => l.a)).toEqual([{ type: "send", frame: { type: "state", speaking: false, bargein: true } }]);
    r.audio(600, false);
    expect(r.frames("final").at(-1)!.a).toEqual({ type: "send", frame: { type: "final", text: "wait", continues: true } });
    expect(r.requests().at(-1)).toBe("tell me about the menu wait");
  });

  it("a hold no audio decides (the client stopped sending) resumes after the wall-clock backstop", () => {
    const r = rig({ avatarSpeaking: true });
    r.audio(320, false);
    r.audio(WINDOW_MS, true); // one window over the strong onset: held at once
    expect(r.acts("hold_speech")).toHaveLength(1);
    r.wait(BARGE_RULES.backstopMs - 1);
    expect(r.acts("release_speech")).toEqual([]);
    r.wait(1);
    expect(r.acts("release_speech")).toHaveLength(1);
  });
});

describe("skip_turn and mute", () => {
  it("skip_turn's held words join the next turn until their time runs out", () => {
    const r = rig({ speculative: false });
    r.core.holdWords("I was thinking about", 6000);
    r.utterance("the red one");
    r.audio(600, false);
    expect(r.frames("final").map((l) => l.a)).toEqual([{ type: "send", frame: { type: "final", text: "the red one", continues: true } }]);
    expect(r.requests()).toEqual(["I was thinking about the red one"]);

    r.core.turnEnded();
    r.core.holdWords("and then", 6000);
    r.wait(6000);
    r.utterance("never mind");
    r.audio(600, false);
    expect(r.frames("final").at(-1)!.a).toEqual({ type: "send", frame: { type: "final", text: "never mind", continues: false } });
    expect(r.requests().at(-1)).toBe("never mind");
  });

  it("muting drops the words so far and the speculation on them; nothing is heard while muted", () => {
    const r = rig();
    r.utterance("hello there");
    r.audio(WINDOW_MS, false);
    r.core.mute(true);
    expect(r.gates()[0].state).toBe("dropped");
    expect(r.frames("caption_clear")).toHaveLength(1);
    r.partial("more words");
    r.audio(600, false);
    expect(r.requests()).toEqual(["hello there"]);
    expect(r.frames("final")).toEqual([]);
  });
});
