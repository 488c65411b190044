// A clause growing as its audio arrives: the same 48 kHz samples as resampling it whole; frames
// handed out only once audio and mouth are final; with no timings the mouth comes from the audio.
import { describe, expect, it } from "vitest";
import { to48k } from "../tts/resample.ts";
import { mouthTrackFromAudio } from "../lipsync/audio-mouth.ts";
import { GrowingUtterance } from "./growing-utterance.ts";

const RATE = 24000;
/** 1.2 s of a voiced buzz with a pause in the middle. */
function speech(): Int16Array {
  const pcm = new Int16Array(RATE * 1.2);
  for (let i = 0; i < pcm.length; i++) {
    const t = i / RATE;
    if (t > 0.5 && t < 0.7) continue;
    pcm[i] = Math.round(9000 * Math.sin(2 * Math.PI * 140 * t) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 4 * t)));
  }
  return pcm;
}

function feed(g: GrowingUtterance, pcm: Int16Array, sizes: number[]): void {
  let at = 0;
  for (let k = 0; at < pcm.length; k++) {
    const n = sizes[k % sizes.length];
    g.push(pcm.subarray(at, at + n), RATE);
    at += n;
  }
}

describe("GrowingUtterance", () => {
  it("ends with the same samples as resampling the whole clause, however the chunks fall", () => {
    const pcm = speech();
    const g = new GrowingUtterance("x", "neutral");
    feed(g, pcm, [977, 13, 4801, 2]);
    g.end();
    expect(Array.from(g.snapshot().pcm48k)).toEqual(Array.from(to48k(pcm, RATE)));
    expect(g.snapshot().mouth).toHaveLength(30);
  });

  it("hands out frames only as their audio and mouth are final, and never takes one back", () => {
    const pcm = speech();
    const g = new GrowingUtterance("x", "neutral");
    const seen: number[] = [];
    g.onGrow(() => seen.push(g.frames));
    g.push(pcm.subarray(0, RATE * 0.1), RATE);
    expect(g.frames).toBe(1); // 100 ms of audio, no timings: the first frame (the next is its context, the newest kept back)
    const early = g.snapshot();
    g.push(pcm.subarray(RATE * 0.1, RATE * 0.6), RATE);
    const mid = g.snapshot();
    expect(mid.mouth.length).toBeGreaterThan(0);
    expect(mid.pcm48k.length).toBe(mid.mouth.length * 1920);
    expect(early.mouth).toEqual(mid.mouth.slice(0, early.mouth.length));
    g.push(pcm.subarray(RATE * 0.6), RATE);
    g.end();
    const last = g.snapshot();
    expect(last.mouth.slice(0, mid.mouth.length)).toEqual(mid.mouth);
    expect(Array.from(last.pcm48k.subarray(0, mid.pcm48k.length))).toEqual(Array.from(mid.pcm48k));
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // The mouth follows the audio: open while it sounds, shut in its pause.
    expect(last.mouth.slice(3, 10).some((m) => m.open > 0.1)).toBe(true);
    expect(last.mouth[15].open).toBe(0);
  });

  it("the first frames no timing covers take the audio's mouth as soon as 40 ms of audio lie past them", () => {
    const pcm = speech();
    // A first chunk of 100 ms (Cartesia's size) settles the first frame: its sound need not wait for a second chunk.
    const one = new GrowingUtterance("x", "neutral");
    one.push(pcm.subarray(0, RATE * 0.1), RATE);
    expect(one.frames).toBe(1);
    // Its shape is the one the whole clause gives it, within one step of the slew limit (0.3).
    const whole = mouthTrackFromAudio(pcm, RATE)[0];
    const first = one.snapshot().mouth[0];
    expect(first.open).toBeGreaterThan(0.1);
    for (const k of ["open", "wide", "round"] as const) expect(Math.abs(first[k] - whole[k])).toBeLessThanOrEqual(0.3);
    const g = new GrowingUtterance("x", "neutral");
    g.push(pcm.subarray(0, RATE * 0.2), RATE);
    // 200 ms: frames 0-2 have their context (the last frames are kept back for the resampler and a cut).
    expect(g.frames).toBeGreaterThanOrEqual(2);
    expect(g.snapshot().mouth.some((m) => m.open > 0.1)).toBe(true);
    // Past the onset the full wait applies again (timings may still come): frame 4 waits for 280 ms after it.
    g.push(pcm.subarray(RATE * 0.2, RATE * 0.4), RATE);
    expect(g.frames).toBe(4);
    // Timings that trail the audio (a word's arrive when it ends) do not hold the first frames either.
    const t = new GrowingUtterance("x", "neutral");
    t.push(pcm.subarray(0, RATE * 0.2), RATE, [{ phoneme: "a", startMs: 0, endMs: 30 }]);
    expect(t.frames).toBeGreaterThanOrEqual(2);
  });

  it("with timings, frames are settled from them as soon as they reach past the frame", () => {
    const pcm = speech();
    const g = new GrowingUtterance("x", "neutral");
    g.push(pcm.subarray(0, RATE * 0.2), RATE, [
      { phoneme: "a", startMs: 0, endMs: 200 },
      { phoneme: "m", startMs: 200, endMs: 400 },
    ]);
    // Timings to 400 ms, audio to 200 ms: the audio is the limit (5 frames, less the last one the
    // resampler cannot finish yet and the one kept back).
    expect(g.frames).toBe(3);
    expect(g.snapshot().mouth.some((m) => m.open > 0.1)).toBe(true);
  });

  it("a cut stream fades out over what was not handed out yet and closes the mouth", () => {
    const g = new GrowingUtterance("x", "neutral");
    g.push(speech().subarray(0, RATE * 0.45), RATE);
    const handed = g.frames;
    g.end(new Error("cut"));
    const u = g.snapshot();
    expect(g.failure?.message).toBe("cut");
    expect(u.mouth.length).toBeGreaterThan(handed);
    expect(u.mouth.at(-1)).toEqual({ open: 0, wide: 0, round: 0 });
    expect(Math.abs(u.pcm48k[u.pcm48k.length - 1])).toBeLessThan(50);
  });
});
