import { describe, expect, it } from "vitest";
import { WINDOW_MS } from "../../stt/vad-segmenter.ts";
import { TurnEndClock } from "./end-of-turn.ts";

/** 16 kHz s16 of `ms` at a constant amplitude square wave (RMS = amplitude). */
const tone = (ms: number, rms: number) => Int16Array.from({ length: 16 * ms }, (_, i) => (i % 2 ? rms : -rms));

/**
 * A clock fed 320 ms of room tone and 640 ms of voice (ending at 960 ms), with the VAD's windows:
 * voiced through the voice and 64 ms past it (Silero's lag), then its 96 ms of minimum silence,
 * after which it ends the stretch at 1024 ms, the end of its last voiced window. Audio time 1120.
 */
function afterVoice() {
  const clock = new TurnEndClock();
  let atMs = 0;
  /** `ms` of audio at `rms`, each whole window of it scored `p`; what each window asked. */
  const feed = (ms: number, rms: number, p: number, vadSpeaking = false): boolean[] => {
    clock.audio(tone(ms, rms));
    const asked: boolean[] = [];
    for (; atMs + WINDOW_MS <= clock.receivedMs; atMs += WINDOW_MS) asked.push(clock.window(atMs, p, vadSpeaking));
    return asked;
  };
  feed(320, 5, 0.02);
  feed(640, 4000, 0.95, true);
  feed(64, 5, 0.9, true);
  feed(96, 5, 0.05, true);
  clock.speechEnd(1024);
  return { clock, feed };
}

/** A clock while the VAD still counts the stretch as speech: `ms` of audio at `rms`, each whole window of it scored `p`. */
function duringVoice() {
  const clock = new TurnEndClock();
  let atMs = 0;
  const feed = (ms: number, rms: number, p: number) => {
    clock.audio(tone(ms, rms));
    for (; atMs + WINDOW_MS <= clock.receivedMs; atMs += WINDOW_MS) clock.window(atMs, p, true);
  };
  return { clock, feed };
}

describe("TurnEndClock", () => {
  it("the wait counts from the acoustic end of the voice (960), not the VAD's later end (1024)", () => {
    const { clock, feed } = afterVoice();
    expect(clock.pending).toBe(false);
    expect(clock.schedule(220), "the deadline at 960 + 220, 60 ms after 1120").toBe(60);
    expect(clock.pending).toBe(true);
    feed(24, 5, 0.03);
    expect(clock.due(), "more than a window of the wait still to come").toBe(false);
    feed(40, 5, 0.03);
    expect(clock.due()).toBe(true);
  });

  it("the part of the wait the VAD has not scored yet (under a window) is bridged by quiet energy, never by voice", () => {
    for (const [rms, due] of [
      [5, true],
      [4000, false],
    ] as const) {
      const { clock, feed } = afterVoice();
      clock.schedule(220);
      feed(32, 5, 0.03); // scored up to 1152; the deadline 1180 is 28 ms on
      clock.audio(tone(30, rms)); // received up to 1182, not yet scored
      expect(clock.due(), `the unscored audio at RMS ${rms}`).toBe(due);
    }
  });

  it("voice coming back holds the turn; too short for speech, the wait counts again from where it ended", () => {
    const { clock, feed } = afterVoice();
    clock.schedule(220);
    const firstEnd = clock.lastVoiceAt;
    feed(64, 3000, 0.9);
    expect(clock.due(), "past the deadline (1184 > 1180), but the voice came back").toBe(false);
    expect(feed(96, 5, 0.03)[2], "quiet for the VAD's minimum silence: a new deadline is asked for").toBe(true);
    expect(clock.schedule(220), "from the end of the voice that came back: 1184 + 220 - 1280").toBe(124);
    expect(clock.due()).toBe(false);
    expect(clock.lastVoiceAt - firstEnd, "first_audio_ms counts from the later end").toBeGreaterThan(50);
  });

  it("voice that comes back and stays blocks the deadline", () => {
    const { clock, feed } = afterVoice();
    feed(clock.schedule(220) + 64, 3000, 0.9);
    expect(clock.due()).toBe(false);
  });

  it("the voice is quiet once its energy has stayed under the voice's level for 40 ms, though Silero still lags", () => {
    const { clock, feed } = duringVoice();
    feed(320, 5, 0.02);
    feed(640, 4000, 0.95);
    expect(clock.voiceQuiet, "while the voice goes on").toBe(false);
    feed(30, 5, 0.9);
    expect(clock.voiceQuiet, "30 ms of quiet energy, Silero still at 0.9").toBe(false);
    feed(10, 5, 0.9);
    expect(clock.voiceQuiet, "40 ms of quiet energy: quiet, before Silero's probability decays").toBe(true);
    feed(20, 3000, 0.9);
    expect(clock.voiceQuiet, "the voice again").toBe(false);
  });

  it("audio too noisy for energy to tell leaves the quiet to Silero", () => {
    const { clock, feed } = duringVoice();
    feed(320, 1000, 0.02); // a noise floor 12 dB under the voice: under the 24 dB energy needs
    feed(640, 4000, 0.95);
    feed(96, 1000, 0.9);
    expect(clock.voiceQuiet, "Silero still says voice").toBe(false);
    feed(32, 1000, 0.2);
    expect(clock.voiceQuiet, "Silero's quiet window").toBe(true);
  });

  it("clear() forgets the pending end", () => {
    const { clock, feed } = afterVoice();
    feed(clock.schedule(220) + 64, 5, 0.03);
    expect(clock.due()).toBe(true);
    clock.clear();
    expect(clock.pending).toBe(false);
    expect(clock.due()).toBe(false);
  });
});
