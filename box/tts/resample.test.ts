import { describe, expect, it } from "vitest";
import { resample, resampledLength, to16k, to48k, to48kInSlices } from "./resample.ts";

function sine(freq: number, rate: number, seconds: number, amplitude = 0.5): Int16Array {
  const out = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * freq * i) / rate));
  return out;
}

function rms(pcm: Int16Array, from = 0, to = pcm.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += pcm[i] * pcm[i];
  return Math.sqrt(s / (to - from));
}

/** Frequency from upward zero crossings over the middle of the signal (edges skipped). */
function frequency(pcm: Int16Array, rate: number): number {
  const from = Math.floor(pcm.length * 0.1);
  const to = Math.floor(pcm.length * 0.9);
  const crossings: number[] = [];
  for (let i = from + 1; i < to; i++) {
    if (pcm[i - 1] < 0 && pcm[i] >= 0) crossings.push(i - 1 + -pcm[i - 1] / (pcm[i] - pcm[i - 1]));
  }
  return ((crossings.length - 1) * rate) / (crossings[crossings.length - 1] - crossings[0]);
}

describe("resample", () => {
  it("keeps a sine's frequency and level from 22050 Hz to 48 kHz", () => {
    const input = sine(1000, 22050, 1);
    const out = to48k(input, 22050);
    expect(out.length).toBe(48000);
    expect(frequency(out, 48000)).toBeCloseTo(1000, 0);
    const mid = [4800, 43200] as const;
    expect(rms(out, ...mid) / rms(input, 2205, 19845)).toBeCloseTo(1, 2);
  });

  it("keeps a sine's frequency from 22050 Hz to 16 kHz and 48 kHz to 16 kHz", () => {
    expect(frequency(to16k(sine(440, 22050, 1), 22050), 16000)).toBeCloseTo(440, 0);
    expect(frequency(to16k(sine(3000, 48000, 0.5), 48000), 16000)).toBeCloseTo(3000, 0);
  });

  it("gives ceil(n × to / from) samples for any length", () => {
    for (const n of [0, 1, 2, 147, 1001, 22051]) {
      expect(resample(new Int16Array(n), 22050, 48000).length).toBe(resampledLength(n, 22050, 48000));
      expect(resampledLength(n, 22050, 48000)).toBe(Math.ceil((n * 48000) / 22050));
    }
    expect(resample(new Int16Array(3000), 48000, 16000).length).toBe(1000);
  });

  it("removes content above the new Nyquist frequency instead of aliasing it", () => {
    const out = to16k(sine(10000, 22050, 0.5), 22050); // 10 kHz cannot exist at 16 kHz
    expect(rms(out, 800, 7200)).toBeLessThan(rms(sine(10000, 22050, 0.5)) * 0.01);
  });

  it("returns a copy at the same rate and refuses bad rates", () => {
    const input = sine(100, 16000, 0.1);
    const out = resample(input, 16000, 16000);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(() => resample(input, 0, 48000)).toThrow(RangeError);
  });

  it("to48kInSlices gives to48k's samples and lets the thread go between slices", async () => {
    const input = sine(440, 22050, 2);
    let turns = 0;
    let watching = true;
    const watch = () => {
      turns++;
      if (watching) setImmediate(watch);
    };
    setImmediate(watch);
    const sliced = await to48kInSlices(input, 22050);
    watching = false;
    expect(sliced).toEqual(to48k(input, 22050));
    // 96,000 output samples in quarter-second slices: the other work ran between them.
    expect(turns).toBeGreaterThanOrEqual(6);
  });
});
