// The pure parts of capture: resampling to 16 kHz, Int16 framing, and mic failures in words.
import { describe, expect, it } from "vitest";
import { PcmFramer, PcmResampler, micProblem, openMicrophone } from "./microphone.ts";

const sine = (rate: number, hz: number, seconds: number) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));
const rms = (a: Float32Array) => Math.sqrt(a.reduce((s, x) => s + x * x, 0) / a.length);

function resampleInChunks(rate: number, input: Float32Array, sizes: number[]): Float32Array {
  const r = new PcmResampler(rate);
  const parts: number[] = [];
  for (let i = 0, k = 0; i < input.length; k++) {
    const n = sizes[k % sizes.length];
    parts.push(...r.push(input.subarray(i, i + n)));
    i += n;
  }
  return Float32Array.from(parts);
}

describe("PcmResampler", () => {
  for (const rate of [48_000, 44_100, 22_050, 8_000]) {
    it(`${rate} Hz → 16 kHz keeps length and level, however the input is cut`, () => {
      const input = sine(rate, 300, 1);
      const out = resampleInChunks(rate, input, [128, 333, 7]);
      expect(Math.abs(out.length - 16_000)).toBeLessThanOrEqual(1);
      expect(rms(out)).toBeGreaterThan(0.33);
      expect(rms(out)).toBeLessThan(0.37);
      expect(resampleInChunks(rate, input, [input.length])).toEqual(out);
    });
  }
  it("16 kHz passes through", () => {
    const input = sine(16_000, 300, 0.1);
    expect(new PcmResampler(16_000).push(input)).toEqual(input);
  });
});

describe("PcmFramer", () => {
  it("cuts 20 ms frames of s16 and clamps", () => {
    const f = new PcmFramer(320);
    expect(f.push(new Float32Array(319))).toEqual([]);
    const frames = f.push(Float32Array.from([2, -2, 0.5]));
    expect(frames).toHaveLength(1);
    expect(frames[0][319]).toBe(32767);
    expect(f.push(new Float32Array(318))[0].slice(0, 2)).toEqual(Int16Array.from([-32768, 16384]));
  });
});

describe("microphone failures in words", () => {
  it("names denial, absence, a busy device and a missing API", async () => {
    expect(micProblem(Object.assign(new Error("x"), { name: "NotAllowedError" }))).toMatch(/permission was denied/);
    expect(micProblem(Object.assign(new Error("x"), { name: "NotFoundError" }))).toMatch(/No microphone/);
    expect(micProblem(Object.assign(new Error("x"), { name: "NotReadableError" }))).toMatch(/in use/);
    const states: string[] = [];
    const err = await openMicrophone(
      () => {},
      {},
      (_t, p) => states.push(p.state),
    ).catch((e) => e);
    expect(err).toMatchObject({ code: "mic_unavailable", message: expect.stringMatching(/no microphone access/) });
    expect(states).toEqual(["unavailable"]);
  });

  it("asks for echo cancellation, noise suppression and automatic gain; a denial is `denied`", async () => {
    let asked: MediaStreamConstraints | undefined;
    const mediaDevices = {
      getUserMedia: async (c: MediaStreamConstraints) => {
        asked = c;
        throw Object.assign(new Error("no"), { name: "NotAllowedError" });
      },
    } as unknown as MediaDevices;
    const states: string[] = [];
    const err = await openMicrophone(
      () => {},
      { mediaDevices, AudioContext: class {} as unknown as typeof AudioContext },
      (_t, p) => states.push(p.state),
    ).catch((e) => e);
    expect(asked).toEqual({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 } });
    expect(err).toMatchObject({ code: "mic_denied" });
    expect(states).toEqual(["pending", "denied"]);
  });
});
