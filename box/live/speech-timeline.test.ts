import { describe, expect, it } from "vitest";
import { SpeechTimeline, type UtteranceInput } from "./speech-timeline.ts";

const utt = (frames: number, level = 1000, text = "x"): UtteranceInput => ({
  text,
  tone: "neutral",
  pcm48k: new Int16Array(frames * 1920).fill(level),
  mouth: Array.from({ length: frames }, (_, i) => ({ open: (i + 1) / frames, wide: 0, round: 0 })),
});

describe("SpeechTimeline", () => {
  it("queues utterances back to back, in order, never before the earliest frame", () => {
    const t = new SpeechTimeline();
    const a = t.enqueue(utt(10, 100, "a"), 5);
    const b = t.enqueue(utt(4, 200, "b"), 0);
    expect([a.startFrame, a.endFrame, b.startFrame, b.endFrame]).toEqual([5, 15, 15, 19]);
    expect(t.at(4)).toBeNull();
    expect(t.at(5)?.text).toBe("a");
    expect(t.at(15)?.text).toBe("b");
    expect(t.at(19)).toBeNull();
  });

  it("gives each frame the matching slice of audio and mouth shape", () => {
    const t = new SpeechTimeline();
    t.enqueue(utt(3, 700), 2);
    expect(t.audioAt(1).every((s) => s === 0)).toBe(true);
    expect(t.audioAt(2).every((s) => s === 700)).toBe(true);
    expect(t.mouthAt(4)?.open).toBe(1);
    expect(t.mouthAt(5)).toBeNull();
  });

  it("interrupt cuts the playing utterance at the frame and drops the queue", () => {
    const t = new SpeechTimeline();
    t.enqueue(utt(10), 0);
    t.enqueue(utt(10), 0);
    const cut = t.interrupt(4);
    expect(cut).toHaveLength(2);
    expect(t.at(3)).not.toBeNull();
    expect(t.at(4)).toBeNull();
    expect(t.audioAt(4).every((s) => s === 0)).toBe(true);
    expect(t.endFrame).toBe(4);
    t.prune(4);
    expect(t.pending).toBe(0);
  });
});
