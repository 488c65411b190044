import { describe, expect, it } from "vitest";
import type { MouthParams } from "../render/frame-params.ts";
import { mouthTrackFromAudio } from "./audio-mouth.ts";
import { mouthTrackForUtterance } from "./lip-sync.ts";

const RATE = 16000;
const FRAME_MS = 40;

/** `seconds` of silence with a sine of `freq` Hz at `amplitude` (0..1) from `from` to `to` s. */
function burst(seconds: number, from: number, to: number, freq: number, amplitude: number, rate = RATE): Int16Array {
  const pcm = new Int16Array(Math.round(seconds * rate));
  for (let i = Math.round(from * rate); i < Math.round(to * rate); i++) {
    pcm[i] = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * freq * i) / rate));
  }
  return pcm;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const inside = (track: MouthParams[], from: number, to: number) => track.filter((_, i) => i * FRAME_MS >= from && (i + 1) * FRAME_MS <= to);

describe("mouthTrackFromAudio", () => {
  it("gives one frame per 40 ms at 25 fps", () => {
    expect(mouthTrackFromAudio(new Int16Array(16000), RATE)).toHaveLength(25);
    expect(mouthTrackFromAudio(new Int16Array(16001), RATE)).toHaveLength(26);
    expect(mouthTrackFromAudio(new Int16Array(48000), 48000, 30)).toHaveLength(30);
  });

  it("keeps the mouth closed on silence and on faint noise (noise gate)", () => {
    const noise = new Int16Array(RATE);
    let seed = 1;
    for (let i = 0; i < noise.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      noise[i] = ((seed / 0x7fffffff) * 2 - 1) * 30; // about -65 dBFS
    }
    for (const pcm of [new Int16Array(RATE), noise]) {
      for (const f of mouthTrackFromAudio(pcm, RATE)) expect(f).toEqual({ open: 0, wide: 0, round: 0 });
    }
  });

  it("opens during a loud burst and only then", () => {
    const track = mouthTrackFromAudio(burst(1.2, 0.4, 0.8, 700, 0.5), RATE);
    expect(Math.min(...inside(track, 440, 760).map((f) => f.open))).toBeGreaterThan(0.5);
    for (const f of [...inside(track, 0, 400), ...inside(track, 800, 1200)]) expect(f.open).toBe(0);
  });

  it("opens more for louder sound", () => {
    const opens = [0.01, 0.03, 0.1, 0.3].map((amp) =>
      mean(inside(mouthTrackFromAudio(burst(1, 0.2, 0.8, 700, amp), RATE), 320, 680).map((f) => f.open)),
    );
    for (let i = 1; i < opens.length; i++) expect(opens[i]).toBeGreaterThan(opens[i - 1]);
  });

  it("rounds for low-pitched energy and widens for high", () => {
    const low = inside(mouthTrackFromAudio(burst(1, 0.2, 0.8, 400, 0.3), RATE), 320, 680);
    const high = inside(mouthTrackFromAudio(burst(1, 0.2, 0.8, 2600, 0.3), RATE), 320, 680);
    expect(mean(low.map((f) => f.round))).toBeGreaterThan(mean(high.map((f) => f.round)) + 0.3);
    expect(mean(high.map((f) => f.wide))).toBeGreaterThan(mean(low.map((f) => f.wide)) + 0.3);
  });

  it("never moves more than the speed limit per frame", () => {
    const track = mouthTrackFromAudio(burst(1, 0.3, 0.34, 700, 0.9), RATE);
    for (let i = 1; i < track.length; i++) expect(Math.abs(track[i].open - track[i - 1].open)).toBeLessThanOrEqual(0.3 + 1e-9);
  });
});

describe("mouthTrackForUtterance", () => {
  it("uses the phoneme timings when there are some and the audio otherwise", () => {
    const pcm = burst(1, 0.2, 0.8, 700, 0.3, 22050);
    const withTimings = mouthTrackForUtterance({
      pcm,
      sampleRate: 22050,
      durationMs: 1000,
      phonemes: [{ phoneme: "a", startMs: 200, endMs: 800 }],
    });
    const without = mouthTrackForUtterance({ pcm, sampleRate: 22050, durationMs: 1000, phonemes: [] });
    expect(withTimings.source).toBe("phonemes");
    expect(without.source).toBe("audio");
    expect(withTimings.track).toHaveLength(25);
    expect(without.track).toHaveLength(25);
  });
});
