import { describe, expect, it, vi } from "vitest";
import { breathyTail, endpointFor, EOT, isRealUtterance, skipHoldMs, speculationReady, turnDeadlineMs } from "./turn-taking.ts";
import { ConfirmGate } from "../../chat/confirm-gate.ts";
import { PauseState, type Timers } from "./pause.ts";
import { BARGE_RULES, BargeDecision, BargeInController, wantsFloor } from "./barge-in.ts";
import { withVoiceRig } from "../testing/voice-rig.ts";

describe("turn-taking", () => {
  it("waits longer for unfinished words and fillers than for a complete sentence", () => {
    const done = endpointFor("I would like a table for two.", false);
    const and = endpointFor("I would like a table and", false);
    const um = endpointFor("so um", false);
    expect(done.reason).toBe("complete");
    expect(and.reason).toBe("unfinished");
    expect(um.reason).toBe("filler");
    expect(and.wait_ms).toBeGreaterThan(done.wait_ms);
    expect(um.wait_ms).toBeGreaterThan(done.wait_ms);
    expect(endpointFor("anything", true)).toEqual({ eot: 0, wait_ms: 0, reason: "speaking" });
  });
  it("end-of-turn waits: 200 ms after terminal punctuation, 220 after a question shape or another complete phrase", () => {
    expect(endpointFor("I would like a table for two.", false)).toEqual({ eot: 0.9, wait_ms: 200, reason: "complete" });
    expect(endpointFor("Is it open?", false).wait_ms).toBe(200);
    expect(endpointFor("can we book a table", false)).toEqual({ eot: 0.85, wait_ms: 220, reason: "complete" });
    expect(endpointFor("please book a table for two", false)).toEqual({ eot: 0.75, wait_ms: 220, reason: "complete" });
    expect([EOT.terminal, EOT.question, EOT.complete]).toEqual([200, 220, 220]);
  });
  it("keeps the long holds: ~900 ms after a trailing comma, ~1200 after a conjunction, ~1400 after a filler", () => {
    expect(endpointFor("I would like a table,", false)).toMatchObject({ wait_ms: 900, reason: "unfinished" });
    expect(endpointFor("I would like a table and", false)).toMatchObject({ wait_ms: 1200, reason: "unfinished" });
    expect(endpointFor("a table for the", false)).toMatchObject({ wait_ms: 1200, reason: "unfinished" });
    for (const f of ["I was thinking um", "well uh", "a table so"])
      expect(endpointFor(f, false)).toMatchObject({ wait_ms: 1400, reason: "filler" });
    expect(endpointFor("", false)).toMatchObject({ wait_ms: 700, reason: "silence" });
  });
  it("adds 100 ms while the trailing silence still carries breath-level voice", () => {
    expect(endpointFor("please book a table for two", false, { breathy: true }).wait_ms).toBe(320);
    expect(endpointFor("Table for two.", false, { breathy: true }).wait_ms).toBe(300);
    expect(endpointFor("Table for two.", false, { breathy: false }).wait_ms).toBe(200);
    // Hovering (mean of the last three windows at or above 0.15) or rising to at least 0.1.
    expect(breathyTail([0.02, 0.2, 0.18, 0.16])).toBe(true);
    expect(breathyTail([0.01, 0.04, 0.07, 0.12])).toBe(true);
    expect(breathyTail([0.3, 0.05, 0.02, 0.01])).toBe(false);
    expect(breathyTail([0.01, 0.02, 0.03])).toBe(false); // rising, but still silence
    // Silero's steady decay right after the voice is not breath (seen on espeak speech followed by silence) ...
    expect(breathyTail([0.24, 0.19, 0.09])).toBe(false);
    expect(breathyTail([0.3, 0.19, 0.14])).toBe(false);
    expect(breathyTail([0.33, 0.28, 0.2])).toBe(false);
    // ... a level that holds or wavers is.
    expect(breathyTail([0.18, 0.22, 0.17])).toBe(true);
    expect(breathyTail([0.25, 0.15, 0.2])).toBe(true);
    expect(breathyTail([0.9, 0.9])).toBe(false); // not three windows yet
  });
  it("waits for an unstable partial: never before it has been unchanged 150 ms of audio", () => {
    expect(turnDeadlineMs(1000, 250, 900)).toBe(1250); // settled long before
    expect(turnDeadlineMs(1000, 200, 1120)).toBe(1270); // changed 120 ms after the voice ended
    expect(turnDeadlineMs(1000, 1200, 1120)).toBe(2200); // the hold is longer anyway
  });
  it("does not take coughs and lone murmurs as turns", () => {
    expect(isRealUtterance("")).toBe(false);
    expect(isRealUtterance("mm-hmm")).toBe(false);
    expect(isRealUtterance("um uh")).toBe(false);
    expect(isRealUtterance("yes")).toBe(true);
  });
  it("holds skipped words 6 s when plainly unfinished, 30 s after an explicit ask", () => {
    expect(skipHoldMs("I was thinking about the and")).toBe(6000);
    expect(skipHoldMs("so,")).toBe(6000);
    expect(skipHoldMs("let me think about it")).toBe(30000);
  });
});

function fakeTimers() {
  const pending = new Map<number, () => void>();
  let n = 0;
  const timers: Timers = { set: (fn) => (pending.set(++n, fn), n), clear: (h) => pending.delete(h as number) };
  return { timers, fire: () => [...pending.values()].forEach((f) => f()), count: () => pending.size };
}

describe("ConfirmGate", () => {
  it("holds work in order until confirmed, then runs it and anything later at once", async () => {
    const g = new ConfirmGate();
    const ran: string[] = [];
    g.hold(() => ran.push("a"));
    g.hold(() => ran.push("b"));
    expect(ran).toEqual([]);
    g.confirm();
    expect(ran).toEqual(["a", "b"]);
    g.hold(() => ran.push("c"));
    expect(ran).toEqual(["a", "b", "c"]);
    expect(await g.decided).toBe(true);
    g.drop(); // decided once
    expect(g.state).toBe("confirmed");
  });
  it("drops held work for good", async () => {
    const g = new ConfirmGate();
    const ran: string[] = [];
    g.hold(() => ran.push("a"));
    g.drop();
    g.confirm();
    g.hold(() => ran.push("b"));
    expect(ran).toEqual([]);
    expect(await g.decided).toBe(false);
    expect(g.state).toBe("dropped");
  });
});

describe("PauseState", () => {
  it("times out after its maximum, speaks up on real speech, and answers resume even when not paused", () => {
    const ends: string[] = [];
    const t = fakeTimers();
    const p = new PauseState(90, (r) => ends.push(r), t.timers);
    p.begin();
    expect(p.paused).toBe(true);
    t.fire();
    expect(ends).toEqual(["timed_out"]);
    expect(p.paused).toBe(false);
    p.begin();
    p.end("spoke");
    expect(t.count()).toBe(0);
    p.end("resumed");
    expect(ends).toEqual(["timed_out", "spoke", "resumed"]);
    p.end("spoke"); // nothing paused: no frame
    expect(ends).toHaveLength(3);
    p.begin();
    p.endByReply();
    expect(p.paused).toBe(false);
    expect(ends).toHaveLength(3);
  });
});

describe("barge-in in two steps", () => {
  const W = BARGE_RULES.windowMs;
  /** Feeds `ms` of windows at `p`; returns the actions that came out. */
  const feed = (d: BargeDecision, p: number, ms: number, speaking = true) => {
    const out: string[] = [];
    for (let t = 0; t < ms; t += W) {
      const a = d.window(p, speaking);
      if (a) out.push(a);
    }
    return out;
  };

  it("holds at the first evidence of a voice over the speaking avatar: two windows ≥ 0.5 or one ≥ 0.85", () => {
    const d = new BargeDecision();
    expect(d.window(0.6, true)).toBeNull();
    expect(d.window(0.2, true)).toBeNull(); // one window then nothing: not yet
    expect(d.window(0.6, true)).toBeNull();
    expect(d.window(0.55, true)).toBe("hold");
    expect(d.holding).toBe(true);
    const strong = new BargeDecision();
    expect(strong.window(0.9, true)).toBe("hold");
    const quiet = new BargeDecision();
    expect(feed(quiet, 0.95, 2000, false)).toEqual([]); // nothing to hold while the avatar is silent
  });

  it("a cough or a click resumes once the voice is gone, even when the recogniser made a word of it", () => {
    const d = new BargeDecision();
    expect(feed(d, 0.9, 3 * W)).toEqual(["hold"]);
    expect(feed(d, 0.45, 10 * W)).toEqual([]); // Silero's decay after the sound: neither voice nor quiet
    expect(d.heard("hello there")).toBeNull(); // too short to be speech: not the floor
    expect(feed(d, 0.05, BARGE_RULES.releaseQuietMs - W)).toEqual([]);
    expect(d.window(0.05, true)).toBe("release");
    expect(d.holding).toBe(false);
  });

  it("a backchannel resumes: 'yeah', 'mm hmm', 'uh-huh' alone never take the floor", () => {
    for (const word of ["yeah", "mm hmm", "uh-huh", "okay", "right", "sure", "yes"]) {
      const d = new BargeDecision();
      expect(feed(d, 0.9, 14 * W)).toEqual(["hold"]); // ~450 ms of voice: speech-long
      expect(d.heard(word)).toBeNull();
      expect(feed(d, 0.9, 10 * W)).toEqual([]); // ~770 ms: longer than the no-word rule, still a backchannel
      expect(feed(d, 0.1, BARGE_RULES.releaseQuietMs)).toEqual(["release"]);
    }
    expect(wantsFloor("yeah")).toBe(false);
    expect(wantsFloor("yeah but wait")).toBe(true);
  });

  it("speech with a word that wants the floor barges in; so does long voice with no words yet", () => {
    const d = new BargeDecision();
    expect(feed(d, 0.9, 5 * W)).toEqual(["hold"]);
    expect(d.heard("please")).toBeNull(); // a word, but not yet 250 ms of speech
    expect(feed(d, 0.9, 3 * W)).toEqual(["barge"]);
    expect(d.holding).toBe(false);
    const long = new BargeDecision();
    const actions = feed(long, 0.8, BARGE_RULES.confirmLongMs + W);
    expect(actions).toEqual(["hold", "barge"]);
    const chatty = new BargeDecision();
    chatty.window(0.9, true);
    chatty.heard("mm hmm");
    expect(feed(chatty, 0.9, BARGE_RULES.backchannelLongMs)[0]).toBe("barge"); // a backchannel that goes on
  });

  it("speech-long voice with no words waits a little for the recogniser before it resumes", () => {
    const d = new BargeDecision();
    feed(d, 0.9, 10 * W);
    expect(feed(d, 0.1, BARGE_RULES.releaseQuietMs)).toEqual([]);
    expect(d.heard("stop")).toBe("barge"); // the word came late: still a barge-in
    const n = new BargeDecision();
    feed(n, 0.9, 10 * W);
    expect(feed(n, 0.1, BARGE_RULES.releaseQuietMs + BARGE_RULES.wordWaitMs)).toEqual(["release"]);
  });

  it("the controller holds, releases and drops the late words; switched off it does nothing", () => {
    const calls: string[] = [];
    let speaking = true;
    const host = {
      speaking: () => speaking,
      hold: () => calls.push("hold"),
      release: () => calls.push("release"),
      bargeIn: () => calls.push("barge"),
    };
    const c = new BargeInController(host);
    c.window(0.9, "earlier words");
    expect(calls).toEqual(["hold"]);
    expect(c.speechStarted("earlier words")).toBe(true); // the VAD's speech_start: no one-step barge-in
    c.heard("earlier words yeah"); // only "yeah" is new
    for (let i = 0; i < 6; i++) c.window(0.05, "earlier words yeah");
    expect(calls).toEqual(["hold", "release"]);
    expect(c.dropsWords).toBe(true);
    speaking = false;
    expect(c.speechStarted("")).toBe(false); // new voice, nothing to hold: the socket's own rule
    expect(c.dropsWords).toBe(false);
    speaking = true;
    c.window(0.9, "");
    c.stop(); // mute or close: the avatar goes on
    expect(calls).toEqual(["hold", "release", "hold", "release"]);
    vi.useFakeTimers();
    try {
      c.window(0.9, ""); // held, then no more audio (the client stopped sending): it goes on anyway
      vi.advanceTimersByTime(BARGE_RULES.backstopMs);
    } finally {
      vi.useRealTimers();
    }
    expect(calls).toEqual(["hold", "release", "hold", "release", "hold", "release"]);
    const off = new BargeInController(host, false);
    off.window(0.99, "");
    expect(off.speechStarted("")).toBe(false);
    expect(calls).toHaveLength(6);
  });
});

describe("speculation from the first quiet window (issue 23 item 3)", () => {
  /** The frames a turn shows the client (a dropped speculation must show none of them). */
  const TURN_FRAMES = ["final", "state", "reply_chunk", "reply", "reply_error", "metric", "tool", "tool_call", "tool_call_started"];

  it("the rule: quiet voice, complete-looking words, unchanged for the settle time", () => {
    const settled = EOT.speculationSettle;
    expect(speculationReady("hello there", true, settled)).toBe(true);
    expect(speculationReady("Is it open?", true, settled)).toBe(true);
    expect(speculationReady("hello there", false, 1000), "the voice is not quiet").toBe(false);
    expect(speculationReady("hello there", true, settled - 1), "the words changed just now").toBe(false);
    for (const unfinished of ["book a table and", "I would like a table,", "well um", "mm-hmm", ""])
      expect(speculationReady(unfinished, true, 1000), unfinished).toBe(false);
  });

  it("the model request starts at the first quiet window, before the VAD ends the stretch and before the end-of-turn wait is over", () =>
    withVoiceRig(async (rig) => {
      await rig.audio(200, false);
      await rig.audio(160, true);
      await rig.words("hello");
      await rig.audio(140, true);
      await rig.words("hello there");
      await rig.audio(100, true); // the voice ends at 600 ms; the words settled 100 ms before
      expect(rig.turns).toEqual([]);
      await rig.audio(40, false); // one quiet VAD window (608-640); the VAD's end needs three
      expect(rig.turns).toHaveLength(1);
      expect(rig.turns[0].message).toBe("hello there");
      expect(rig.turns[0].gate?.state).toBe("pending");
      // Nothing of it shows yet, and the end-of-turn wait has not even been set.
      expect(rig.frames.filter((f) => TURN_FRAMES.includes(f.type))).toEqual([]);
      expect(rig.frames.filter((f) => f.type === "endpoint" && f.reason !== "speaking")).toEqual([]);
      await rig.audio(300, false); // the wait (220 ms from the voice's end) runs out
      await rig.settle();
      expect(rig.turns, "the speculation was the turn: one model request").toHaveLength(1);
      expect(rig.turns[0].gate?.state).toBe("confirmed");
      const types = rig.types().filter((t) => TURN_FRAMES.includes(t));
      expect(types).toEqual(["final", "state", "reply_chunk", "reply", "state"]);
      expect(rig.frames.find((f) => f.type === "final")).toEqual({ type: "final", text: "hello there", continues: false });
    }));

  it("a partial that keeps changing starts no model request; once it settles, one does", () =>
    withVoiceRig(async (rig) => {
      await rig.audio(200, false);
      await rig.audio(400, true);
      await rig.words("please");
      // The recogniser revises its words every 60 ms of the silence: each looks complete, none settles.
      for (const w of [
        "please book",
        "please book a table",
        "please book a table for two",
        "please look at the table for two",
        "please book a table for two",
      ]) {
        await rig.audio(60, false);
        await rig.words(w);
      }
      expect(rig.turns, "no request on words still changing").toEqual([]);
      await rig.audio(120, false); // unchanged for the settle time (and the wait is still running)
      expect(rig.turns.map((t) => t.message)).toEqual(["please book a table for two"]);
      await rig.audio(300, false);
      await rig.settle();
      expect(rig.turns).toHaveLength(1);
      expect(rig.turns[0].gate?.state).toBe("confirmed");
      expect(rig.frames.filter((f) => f.type === "final")).toEqual([
        { type: "final", text: "please book a table for two", continues: false },
      ]);
    }));

  it("unfinished words start nothing: the turn after 'and' is one request, made at its end", () =>
    withVoiceRig(async (rig) => {
      await rig.utterance("book a table and");
      await rig.audio(600, false); // 'and' holds the turn 1200 ms: no speculation meanwhile
      expect(rig.turns).toEqual([]);
      await rig.audio(800, false);
      await rig.settle();
      expect(rig.turns).toEqual([{ message: "book a table and", gate: null }]);
    }));

  it("a short sound after the words (a final consonant's release, a click) keeps the speculation: one request", () =>
    withVoiceRig(async (rig) => {
      await rig.utterance("give me a moment");
      await rig.audio(60, false);
      expect(rig.turns.map((t) => t.message)).toEqual(["give me a moment"]);
      await rig.audio(40, true); // one voiced window, far shorter than speech
      await rig.audio(400, false);
      await rig.settle();
      expect(rig.turns.map((t) => [t.message, t.gate?.state])).toEqual([["give me a moment", "confirmed"]]);
    }));

  it("the voice coming back as speech drops the speculation: nothing of it reaches the client; the turn answers all the words", () =>
    withVoiceRig(async (rig) => {
      await rig.utterance("hello there");
      await rig.audio(60, false);
      expect(rig.turns.map((t) => t.message)).toEqual(["hello there"]);
      const first = rig.turns[0].gate!;
      await rig.audio(300, true); // the person goes on: speech-long voice, no new words yet
      expect(first.state, "dropped once the voice lasted as long as speech").toBe("dropped");
      await rig.words("hello there my friend");
      await rig.audio(100, true);
      await rig.audio(400, false);
      await rig.settle();
      expect(rig.turns.map((t) => [t.message, t.gate?.state ?? "none"])).toEqual([
        ["hello there", "dropped"],
        ["hello there my friend", "confirmed"],
      ]);
      expect(rig.frames.filter((f) => f.type === "final")).toEqual([{ type: "final", text: "hello there my friend", continues: false }]);
      expect(JSON.stringify(rig.frames)).not.toContain("Reply to hello there.");
      expect(rig.frames.filter((f) => f.type === "state" && f.thinking === true)).toHaveLength(1);
      expect(rig.frames.filter((f) => f.type === "reply_error")).toEqual([]);
    }));

  it("new words drop the speculation at once", () =>
    withVoiceRig(async (rig) => {
      await rig.utterance("hello there");
      await rig.audio(60, false);
      expect(rig.turns).toHaveLength(1);
      await rig.audio(40, true);
      await rig.words("hello there my");
      expect(rig.turns[0].gate?.state).toBe("dropped");
    }));
});
