import { describe, expect, it } from "vitest";
import { IdleAnimator } from "./idle-animator.ts";

describe("IdleAnimator", () => {
  it("blinks at natural intervals (every 2-6 s, brief), and is reproducible", () => {
    const a = new IdleAnimator({ seed: 7 });
    const frames = Array.from({ length: 25 * 60 }, (_, i) => a.params(i).blink);
    const onsets = frames.flatMap((b, i) => (b > 0 && (i === 0 || frames[i - 1] === 0) ? [i] : []));
    expect(onsets.length).toBeGreaterThanOrEqual(8);
    expect(onsets.length).toBeLessThanOrEqual(32);
    const closedRun = Math.max(
      ...frames.map((_, i) => {
        let n = 0;
        while (frames[i + n] > 0) n++;
        return n;
      }),
    );
    expect(closedRun).toBeLessThanOrEqual(5);
    expect(Math.max(...frames)).toBeGreaterThan(0.9);
    const b = new IdleAnimator({ seed: 7 });
    expect(Array.from({ length: 300 }, (_, i) => b.params(i))).toEqual(
      Array.from({ length: 300 }, (_, i) => new IdleAnimator({ seed: 7 }).params(i)),
    );
  });

  it("moves the head a little and smoothly, and breathes", () => {
    const a = new IdleAnimator({ seed: 3 });
    const ps = Array.from({ length: 250 }, (_, i) => a.params(i));
    const xs = ps.map((p) => p.headX);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(1);
    expect(Math.max(...xs.map(Math.abs))).toBeLessThan(4);
    for (let i = 1; i < ps.length; i++) expect(Math.abs(xs[i] - xs[i - 1])).toBeLessThan(0.5);
    const br = ps.map((p) => p.breathe);
    expect(Math.max(...br) - Math.min(...br)).toBeGreaterThan(0.5);
  });
});

describe("IdleAnimator hold", () => {
  it("holds head motion and breathing for holdFrames frames, never a blink", () => {
    const a = new IdleAnimator({ seed: 5, holdFrames: 2 });
    const ps = Array.from({ length: 25 * 30 }, (_, i) => a.params(i));
    for (let i = 0; i + 1 < ps.length; i += 2) {
      const [p, q] = [ps[i], ps[i + 1]];
      expect([q.headX, q.headY, q.headRoll, q.breathe]).toEqual([p.headX, p.headY, p.headRoll, p.breathe]);
    }
    // Frames outside a blink repeat their pair exactly: the renderer copies them.
    const pairs = ps.filter((p, i) => i % 2 === 1 && p.blink === 0 && ps[i - 1].blink === 0);
    expect(pairs.length).toBeGreaterThan(300);
    for (let i = 1; i < ps.length; i += 2) if (ps[i].blink === 0 && ps[i - 1].blink === 0) expect(ps[i]).toEqual(ps[i - 1]);
    // Blinks keep the full frame rate: some blink frame differs from the frame before it within a pair.
    expect(ps.some((p, i) => i % 2 === 1 && p.blink !== ps[i - 1].blink)).toBe(true);
    // Unheld, every frame moves.
    const b = new IdleAnimator({ seed: 5, holdFrames: 1 });
    expect(b.params(1).headX).not.toBe(b.params(0).headX);
  });
});
