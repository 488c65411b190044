import { describe, expect, it } from "vitest";
import { endpointFor, isRealUtterance, skipHoldMs } from "./turn-taking.ts";
import { PauseState, type Timers } from "./pause.ts";

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
