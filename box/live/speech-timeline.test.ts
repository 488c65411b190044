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

  it("hold stops at a frame with silence and release goes on from that frame: nothing skipped or repeated", () => {
    const t = new SpeechTimeline(4);
    // Every sample distinct (1..n), so a skipped or repeated slice shows.
    const ramp = (frames: number, from: number, text: string): UtteranceInput => ({
      ...utt(frames, 0, text),
      pcm48k: Int16Array.from({ length: frames * 4 }, (_, i) => from + i),
    });
    const a = t.enqueue(ramp(6, 1, "a"), 0);
    const out: number[] = [];
    const play = (from: number, to: number) => {
      for (let f = from; f < to; f++) out.push(...t.audioAt(f));
    };
    play(0, 3);
    t.hold(3);
    expect(t.held).toBe(true);
    // Queued while held: after the held one, not at the clock's frame.
    const b = t.enqueue(ramp(2, 25, "b"), 9);
    expect(b.startFrame).toBe(a.endFrame);
    for (let f = 3; f < 10; f++) {
      expect(t.at(f)).toBeNull();
      expect(t.audioAt(f).every((x) => x === 0)).toBe(true);
      expect(t.mouthAt(f)).toBeNull();
    }
    expect(t.pendingAfter(b.id, 12)).toBe(true); // held speech is still to come
    expect(t.release(10)).toBe(7);
    expect(t.held).toBe(false);
    expect(t.at(10)?.text).toBe("a");
    expect(t.mouthAt(10)?.open).toBe(4 / 6); // the mouth of frame 3 of "a"
    play(10, t.endFrame);
    expect(t.at(t.endFrame - 1)?.text).toBe("b");
    expect(out).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
  });

  it("an interrupt while held cuts at the held frame and ends the hold", () => {
    const t = new SpeechTimeline();
    t.enqueue(utt(10), 0);
    t.hold(4);
    t.interrupt(8);
    expect(t.held).toBe(false);
    expect(t.at(8)).toBeNull();
    t.prune(8);
    expect(t.pending).toBe(0);
    expect(t.release(9)).toBe(0);
  });
});

describe("SpeechTimeline with an open utterance (a voice still streaming)", () => {
  it("plays what arrived, stalls past it (nothing after it plays), and goes on from the very next frame", () => {
    const t = new SpeechTimeline(4);
    const ramp = (frames: number, from: number, text: string): UtteranceInput => ({
      ...utt(frames, 0, text),
      pcm48k: Int16Array.from({ length: frames * 4 }, (_, i) => from + i),
    });
    const whole = ramp(6, 1, "a");
    const a = t.enqueue({ ...whole, pcm48k: whole.pcm48k.subarray(0, 8), mouth: whole.mouth.slice(0, 2) }, 0, true);
    const b = t.enqueue(ramp(1, 100, "b"), 0);
    expect(b.startFrame).toBe(2);
    const out: number[] = [];
    for (let f = 0; f < 2; f++) out.push(...t.audioAt(f));
    expect(t.at(2)).toBeNull(); // not arrived: "b" waits behind it
    expect(t.starvedAt(2)).toBe(a);
    t.stall(2, a);
    expect(t.paused && !t.held).toBe(true);
    expect(t.canResume).toBe(false);
    expect(t.grow(a.id, { ...whole, pcm48k: whole.pcm48k.subarray(0, 16), mouth: whole.mouth.slice(0, 4) }, false)).toBe(2);
    expect(b.startFrame).toBe(4);
    expect(t.canResume).toBe(true);
    expect(t.resume(5)).toBe(3);
    for (let f = 5; f < 7; f++) out.push(...t.audioAt(f));
    t.grow(a.id, whole, true);
    for (let f = 7; f < t.endFrame; f++) out.push(...t.audioAt(f));
    expect(out).toEqual([...Array.from({ length: 24 }, (_, i) => i + 1), 100, 101, 102, 103]);
  });

  it("an interrupt closes an open utterance: what arrives after is not played", () => {
    const t = new SpeechTimeline();
    const a = t.enqueue(utt(2), 0, true);
    t.interrupt(1);
    expect(t.grow(a.id, utt(6), true)).toBeNull();
    expect(t.at(1)).toBeNull();
    expect(t.starvedAt(1)).toBeNull();
  });
});
