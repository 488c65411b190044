import { describe, expect, it } from "vitest";
import { acousticVoiceEnd, EnergyRing, ENERGY_END, HOP_MS, noiseFloor, quietBetween } from "./voice-energy.ts";
import { chunks, concat, noise, silence, speech16k } from "../../stt/testing/speech-audio.ts";

/** Hop energies: `n` hops at `rms` each. */
const run = (n: number, rms: number) => Array.from({ length: n }, () => rms);
/** A vowel-like stretch that decays over its last hops, as speech does. */
const voice = (n: number) => [...run(n - 4, 4000), 2500, 1800, 1200, 800];
/** 16 kHz s16 of `ms` at a constant amplitude square wave (RMS = amplitude). */
const tone = (ms: number, rms: number) => Int16Array.from({ length: 16 * ms }, (_, i) => (i % 2 ? rms : -rms));

describe("acoustic end of voice", () => {
  it("a clean tail: the end moves back from the VAD's end to the end of the last hop the energy still heard", () => {
    // 300 ms quiet room, 700 ms voice ending at 1000 ms, then digital silence; Silero's end lags to 1088.
    const hops = [...run(30, 3), ...voice(70), ...run(40, 0)];
    const end = acousticVoiceEnd(hops, 0, 1088, noiseFloor(hops));
    expect(end.endMs).toBe(1000);
    expect(end.voicedRms).not.toBeNull();
    // The same audio with a room-noise floor under the speech ends at the same place.
    const noisy = [...run(30, 40), ...voice(70), ...run(40, 40)];
    expect(acousticVoiceEnd(noisy, 0, 1088, noiseFloor(noisy)).endMs).toBe(1000);
  });

  it("a noisy tail whose energy never drops keeps the VAD's end", () => {
    // Quiet before, then noise as loud as the voice's tail starts with the voice and goes on after it.
    const hops = [...run(30, 5), ...voice(70), ...run(40, 900)];
    const end = acousticVoiceEnd(hops, 0, 1088, noiseFloor(hops));
    expect(end.endMs).toBe(1088);
  });

  it("audio too noisy for energy to tell voice from noise keeps the VAD's end (and no voiced level)", () => {
    const hops = [...run(30, 600), ...voice(70), ...run(40, 600)];
    expect(acousticVoiceEnd(hops, 0, 1088, noiseFloor(hops))).toEqual({ endMs: 1088, voicedRms: null });
  });

  it("a trailing fricative counts as voice: the end is after the hiss, not after the vowel", () => {
    // "bus": the /s/ ~20 dB under the vowel for 100 ms; "half": the /f/ ~27 dB under it.
    for (const fricative of [400, 180]) {
      const hops = [...run(30, 3), ...voice(60), ...run(10, fricative), ...run(40, 0)];
      expect(acousticVoiceEnd(hops, 0, 1088, noiseFloor(hops)).endMs).toBe(1000);
    }
  });

  it("never later than the VAD's end, never more than 150 ms before it", () => {
    // Voice through the hop the VAD's end falls in: the VAD's end, not the hop's.
    const through = [...run(30, 3), ...voice(80), ...run(30, 0)];
    expect(acousticVoiceEnd(through, 0, 1088, noiseFloor(through)).endMs).toBe(1088);
    // The energy fell 300 ms before the VAD's end: at most 150 ms back.
    const early = [...run(30, 3), ...voice(50), ...run(60, 0)];
    expect(acousticVoiceEnd(early, 0, 1100, noiseFloor(early)).endMs).toBe(1100 - ENERGY_END.maxBackMs);
  });

  it("quiet only over received hops that all stay under the voiced level", () => {
    const hops = [...run(10, 0), 5000, ...run(9, 0)];
    expect(quietBetween(hops, 0, 0, 100, 100)).toBe(true);
    expect(quietBetween(hops, 0, 50, 101, 100)).toBe(false); // the loud hop at 100-110
    expect(quietBetween(hops, 0, 150, 210, 100)).toBe(false); // not received yet
    expect(quietBetween(hops, 1000, 500, 1050, 100)).toBe(false); // no longer kept
  });
});

describe("EnergyRing", () => {
  it("keeps 10 ms RMS hops in audio time across uneven chunks and wraps after its capacity", () => {
    const ring = new EnergyRing(200);
    for (const c of chunks(concat(tone(100, 1000), silence(95)))) ring.push(c);
    expect(ring.timeMs).toBe(190); // the last 5 ms wait for a whole hop
    let { hops, firstHopMs } = ring.hops();
    expect(firstHopMs).toBe(0);
    expect(Array.from(hops.slice(0, 10), Math.round)).toEqual(run(10, 1000));
    expect(Array.from(hops.slice(10))).toEqual(run(9, 0));
    ring.push(concat(silence(5), tone(100, 200)));
    ({ hops, firstHopMs } = ring.hops());
    expect(firstHopMs).toBe(100);
    expect(hops.length).toBe(20);
    expect(Array.from(hops.slice(10), Math.round)).toEqual(run(10, 200));
    expect(ring.quiet(100, 200, 100)).toBe(true);
    expect(ring.quiet(150, 210, 100)).toBe(false);
    expect(ring.quiet(200, 300, 1000)).toBe(true);
    expect(ring.quiet(200, 310, 1000)).toBe(false); // 300-310 not received
  });

  it("finds the end of real speech (espeak) near its last audible hop, a trailing fricative included", async () => {
    for (const text of ["the bus", "half", "hello there"]) {
      const speech = await speech16k(text);
      const pcm = concat(noise(400, 20, 7), speech, silence(400));
      let last = 0;
      for (let i = 0; i < speech.length; i++) if (Math.abs(speech[i]) > 60) last = i;
      const audibleEndMs = 400 + (last + 1) / 16;
      const ring = new EnergyRing();
      for (const c of chunks(pcm)) ring.push(c);
      // Silero's end lags the audio by 30-110 ms; say 90.
      const end = ring.voiceEnd(audibleEndMs + 90);
      expect(end.endMs, text).toBeGreaterThanOrEqual(audibleEndMs - HOP_MS - 20);
      expect(end.endMs, text).toBeLessThanOrEqual(audibleEndMs + HOP_MS);
    }
  });
});
