import { beforeAll, describe, expect, it } from "vitest";
import type { MouthParams } from "../render/frame-params.ts";
import type { PhonemeTiming } from "../tts/engine.ts";
import { EspeakEngine } from "../tts/espeak-engine.ts";
import { frameCount, mouthTrackFromPhonemes } from "./mouth-track.ts";
import { visemeOf, visemesOf } from "./visemes.ts";

const FPS = 25;
const FRAME_MS = 1000 / FPS;
const MAX_STEP = 7.5 / FPS; // the default speed limit per frame

const seq = (...items: [string, number, number][]): PhonemeTiming[] =>
  items.map(([phoneme, startMs, endMs]) => ({ phoneme, startMs, endMs }));

/** Frames whose centre lies in [from, to] ms. */
function framesIn(track: MouthParams[], from: number, to: number): MouthParams[] {
  return track.filter((_, i) => (i + 0.5) * FRAME_MS >= from && (i + 0.5) * FRAME_MS <= to);
}

const max = (track: MouthParams[], key: keyof MouthParams) => Math.max(...track.map((m) => m[key]));

function maxDelta(track: MouthParams[]): number {
  let d = 0;
  for (let i = 1; i < track.length; i++) {
    for (const k of ["open", "wide", "round"] as const) d = Math.max(d, Math.abs(track[i][k] - track[i - 1][k]));
  }
  return d;
}

describe("visemes", () => {
  it("classes IPA phonemes", () => {
    expect(["p", "b", "m"].map(visemeOf)).toEqual(["PP", "PP", "PP"]);
    expect(visemeOf("f")).toBe("FF");
    expect(visemeOf("tʃ")).toBe("CH");
    expect(visemeOf("ɑː")).toBe("aa");
    expect(visemeOf("iː")).toBe("I");
    expect(visemeOf("uː")).toBe("U");
    expect(visemeOf("ɔ̃")).toBe("O"); // French nasal vowel
    expect(visemesOf("aɪ")).toEqual(["aa", "I"]); // a diphthong glides
    expect(visemeOf("")).toBe("sil");
  });
});

describe("mouthTrackFromPhonemes", () => {
  it("gives one frame per 1/fps of audio: ceil(duration × fps / 1000)", () => {
    const ph = seq(["a", 100, 300]);
    for (const [ms, fps] of [
      [1000, 25],
      [1001, 25],
      [999, 25],
      [1234.5, 30],
      [0, 25],
    ] as const) {
      expect(mouthTrackFromPhonemes(ph, ms, fps)).toHaveLength(Math.ceil((ms * fps) / 1000));
      expect(frameCount(ms, fps)).toBe(Math.ceil((ms * fps) / 1000));
    }
  });

  it("closes the lips fully on p, b, m between open vowels", () => {
    const track = mouthTrackFromPhonemes(seq(["a", 100, 300], ["m", 300, 400], ["a", 400, 600], ["b", 600, 650], ["a", 650, 850]), 1000);
    for (const f of framesIn(track, 300, 400)) expect(f.open).toBeLessThanOrEqual(0.05);
    for (const f of framesIn(track, 600, 650)) expect(f.open).toBeLessThanOrEqual(0.05);
    expect(max(framesIn(track, 100, 300), "open")).toBeGreaterThan(0.4);
    expect(max(framesIn(track, 400, 600), "open")).toBeGreaterThan(0.4);
  });

  it("opens more for /a/ than /i/, spreads /i/, rounds /u/", () => {
    const a = mouthTrackFromPhonemes(seq(["a", 200, 500]), 800);
    const i = mouthTrackFromPhonemes(seq(["i", 200, 500]), 800);
    const u = mouthTrackFromPhonemes(seq(["u", 200, 500]), 800);
    expect(max(a, "open")).toBeGreaterThan(max(i, "open") + 0.3);
    expect(max(i, "wide")).toBeGreaterThan(max(a, "wide") + 0.2);
    expect(max(u, "round")).toBeGreaterThan(0.7);
    expect(max(a, "round")).toBeLessThan(0.1);
    expect(max(i, "round")).toBeLessThan(0.1);
  });

  it("rests in the leading and trailing silence and closes in a pause", () => {
    const track = mouthTrackFromPhonemes(seq(["a", 300, 600], ["o", 900, 1200]), 1500);
    for (const f of [...framesIn(track, 0, 200), ...framesIn(track, 1260, 1500), track[0], track[track.length - 1]]) {
      expect(f).toEqual({ open: 0, wide: 0, round: 0 });
    }
    expect(Math.min(...framesIn(track, 660, 800).map((f) => f.open))).toBe(0);
  });

  it("ends at rest even when the sound runs to the last sample", () => {
    const track = mouthTrackFromPhonemes(seq(["a", 0, 500]), 500);
    expect(track[track.length - 1].open).toBe(0);
    expect(max(track, "open")).toBeGreaterThan(0.4);
  });

  it("moves with the first audio when sound starts in the first frame, one frame's motion from rest", () => {
    const early = mouthTrackFromPhonemes(seq(["a", 11, 500]), 600);
    expect(early[0].open).toBeGreaterThan(0.1);
    expect(early[0].open).toBeLessThanOrEqual(MAX_STEP + 1e-9);
    // Sound from the second half of the frame on: the first frame still rests.
    expect(mouthTrackFromPhonemes(seq(["a", 25, 500]), 600)[0]).toEqual({ open: 0, wide: 0, round: 0 });
  });

  it("anticipates: the mouth starts opening before a vowel's onset", () => {
    const track = mouthTrackFromPhonemes(seq(["a", 400, 700]), 1000);
    const onset = Math.floor(400 / FRAME_MS);
    // The two frames before the onset (320-360 and 360-400 ms) are already opening, in order.
    expect(track[onset - 2].open).toBeGreaterThan(0.1);
    expect(track[onset - 1].open).toBeGreaterThan(track[onset - 2].open);
    expect(track[Math.floor(200 / FRAME_MS)].open).toBe(0);
  });

  it("anticipates rounding: /u/ after /s/ starts rounding during the /s/", () => {
    const track = mouthTrackFromPhonemes(seq(["s", 200, 360], ["u", 360, 700]), 1000);
    expect(framesIn(track, 300, 360)[0].round).toBeGreaterThan(0.1);
  });

  it("never moves any parameter more than the speed limit per frame", () => {
    const jumpy = seq(["a", 10, 50], ["m", 50, 70], ["i", 70, 110], ["p", 110, 120], ["u", 120, 160], ["a", 160, 400]);
    for (const fps of [25, 30, 50]) {
      expect(maxDelta(mouthTrackFromPhonemes(jumpy, 500, fps))).toBeLessThanOrEqual(7.5 / fps + 1e-9);
    }
  });

  it("keeps every value in 0..1 and tolerates unsorted, overlapping and unknown phonemes", () => {
    const track = mouthTrackFromPhonemes(seq(["ʘ", 300, 400], ["a", 100, 320], ["x̟", 380, 500]), 700);
    for (const f of track) for (const v of Object.values(f)) expect(v >= 0 && v <= 1).toBe(true);
  });
});

describe("mouthTrackFromPhonemes on espeak's timings", () => {
  let engine: EspeakEngine;
  beforeAll(async () => {
    engine = await EspeakEngine.load();
  });

  it("closes on every bilabial, stays within the speed limit and rests at both ends", async () => {
    const u = await engine.synthesize("Bob bought maybe a bumpy map, pip.");
    const track = mouthTrackFromPhonemes(u.phonemes, u.durationMs);
    expect(track).toHaveLength(Math.ceil((u.durationMs * FPS) / 1000));
    const bilabials = u.phonemes.filter((p) => ["p", "b", "m"].includes(p.phoneme));
    expect(bilabials.length).toBeGreaterThanOrEqual(8);
    for (const p of bilabials) {
      const frames = track.filter((_, i) => i * FRAME_MS < p.endMs && (i + 1) * FRAME_MS > p.startMs);
      expect(Math.min(...frames.map((f) => f.open)), `${p.phoneme}@${p.startMs}`).toBeLessThanOrEqual(0.05);
    }
    expect(maxDelta(track)).toBeLessThanOrEqual(MAX_STEP + 1e-9);
    expect(max(track, "open")).toBeGreaterThan(0.4);
    expect(track[0].open).toBeLessThanOrEqual(0.05); // "Bob": the lips start closed
    expect(track[track.length - 1].open).toBe(0);
  });
});
