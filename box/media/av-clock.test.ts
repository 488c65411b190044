import { describe, expect, test } from "vitest";
import { AvClock, type AvTick } from "./av-clock.ts";

const collect = (clock: AvClock, untilMs: number, stepMs = 1): AvTick[] => {
  const out: AvTick[] = [];
  for (let t = 0; t <= untilMs; t += stepMs) out.push(...clock.tick(t));
  return out;
};

describe("AvClock", () => {
  test("25 fps frames and 20 ms chunks of 960 samples, on one timeline", () => {
    const ticks = collect(new AvClock(0), 200);
    const video = ticks.filter((t) => t.kind === "video");
    const audio = ticks.filter((t) => t.kind === "audio");
    expect(video.map((t) => t.frame)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(video.map((t) => t.dueMs)).toEqual([0, 40, 80, 120, 160, 200]);
    expect(audio.map((t) => t.dueMs)).toEqual([0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200]);
    for (const a of audio) {
      if (a.kind !== "audio") continue;
      // Chunk k holds samples [k*960, k*960+960): frame i's audio starts at sample i*1920.
      expect(a.frame * 1920 + a.offset).toBe(a.chunk * 960);
      expect(a.samples).toBe(960);
    }
  });

  test("nothing is handed out before it is due", () => {
    const clock = new AvClock(1000);
    expect(clock.tick(999.9)).toEqual([]);
    expect(clock.tick(1000).map((t) => t.kind)).toEqual(["video", "audio"]);
    expect(clock.tick(1019)).toEqual([]);
    expect(clock.nextDueMs()).toBe(1020);
  });

  test("a late caller gets what is due, in due order, without skipping", () => {
    const clock = new AvClock(0);
    const ticks = clock.tick(95);
    expect(ticks.map((t) => `${t.kind}${t.kind === "video" ? t.frame : t.chunk}`)).toEqual([
      "video0",
      "audio0",
      "audio1",
      "video1",
      "audio2",
      "audio3",
      "video2",
      "audio4",
    ]);
  });

  test("each frame is fully handed out before the next is asked for, whatever the lead", () => {
    for (const audioLeadMs of [0, 10, 20, 40]) {
      const ticks = collect(new AvClock(0, { audioLeadMs }), 400);
      const frames = ticks.map((t) => t.frame);
      expect(frames, `lead ${audioLeadMs} ms`).toEqual([...frames].sort((a, b) => a - b));
    }
  });

  test("the audio lead moves audio earlier, capped at one frame", () => {
    const led = new AvClock(0, { audioLeadMs: 20 });
    expect(led.audioDueMs(2)).toBe(20);
    expect(led.videoDueMs(1)).toBe(40);
    expect(new AvClock(0, { audioLeadMs: 500 }).audioDueMs(2)).toBe(0);
  });

  test("after a stall longer than maxLagMs the timeline shifts instead of bursting", () => {
    const clock = new AvClock(0, { maxLagMs: 200 });
    clock.tick(0);
    const after = clock.tick(1000);
    expect(clock.stalls).toBe(1);
    // Only the next item (now due) comes out; indices continue where they were.
    expect(after.map((t) => (t.kind === "video" ? `v${t.frame}` : `a${t.chunk}`))).toEqual(["a1"]);
    expect(clock.tick(1019)).toEqual([]);
    expect(clock.tick(1020).map((t) => (t.kind === "video" ? `v${t.frame}` : `a${t.chunk}`))).toEqual(["v1", "a2"]);
  });

  test("a rate that does not split into whole samples is refused", () => {
    expect(() => new AvClock(0, { sampleRate: 11_025, fps: 25 })).toThrow(/whole samples/);
  });
});
