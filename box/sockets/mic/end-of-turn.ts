// Implements: the voice socket's end of turn in audio time (issue 14 item 2; docs/api-notes.md "Voice socket
// `/api/voice/ws`", end of turn). Where the voice ended (the VAD's end moved back to where the
// energy fell), breath and voice coming back after it, and the deadline the words asked for, all
// counted in audio received, so the decision is the same on a loaded box. The words themselves
// (endpointFor) and what a turn does stay with the socket.
import { WINDOW_MS } from "../../stt/vad-segmenter.ts";
import { breathyTail, turnDeadlineMs } from "./turn-taking.ts";
import { acousticVoiceEnd, EnergyRing, noiseFloor } from "./voice-energy.ts";

/**
 * Silence that ends a stretch of speech for the VAD (3 windows); the words then decide how long to
 * wait, counted from the acoustic end of the voice (voice-energy.ts). Voice coming back, a partial
 * that still changes and the long holds after "and", fillers and commas keep the turn.
 */
export const VAD_MIN_SILENCE_MS = 96;
/**
 * Energy under the voice's level (voice-energy.ts) for this much audio makes the voice quiet for
 * speculation, before Silero's probability has decayed under its end threshold (~60-100 ms after
 * the last voiced sample): a reply that may start early starts ~50 ms sooner. Audio too noisy for
 * energy to tell leaves it to the VAD.
 */
export const ENERGY_QUIET_MS = 40;
/** The VAD's thresholds (vad-segmenter defaults): voice coming back after the end holds the turn. */
const VOICE_BACK_PROBABILITY = 0.5;
const VOICE_GONE_PROBABILITY = 0.35;

export class TurnEndClock {
  /** Audio received so far, in ms of 16 kHz audio. */
  private received = 0;
  /** Wall time the voice last ended. */
  private voiceEndedAt = 0;
  /** Audio time the VAD has processed. */
  private vadMs = 0;
  /** Audio time (samples received) the recogniser's words last changed. */
  private partialAtMs = 0;
  /** Audio time the voice last ended (acoustic end); null when no end is pending. */
  private voiceEndMs: number | null = null;
  /** Per-10 ms energies of the audio received: where the voice fell silent, and whether the not yet scored audio is quiet. */
  private readonly energy = new EnergyRing();
  /** RMS that counts as voice for this end (null: too noisy for energy to tell; the VAD alone decides). */
  private voicedRms: number | null = null;
  /** Voice came back after the end: the end of the VAD window it was last heard in. */
  private backEndMs = 0;
  /** Audio time at which the pending end of turn is taken; null when none is pending. */
  private eotAtMs: number | null = null;
  /** VAD probabilities of the windows since the voice ended (breath, voice coming back). */
  private tail: number[] = [];
  /** The last few windows, whatever they were: the silence that ended the voice is in them. */
  private recent: { atMs: number; p: number }[] = [];
  private breathyNow = false;
  /** The latest VAD window was under the VAD's end threshold: the voice is quiet (or ended). */
  private quietNow = false;
  /** The latest VAD window was voice (at or above the VAD's start threshold). */
  private voicedNow = false;
  /** Voice came back after the end, not (yet) confirmed as speech: the turn waits. */
  private voiceBack = false;
  private quietWindows = 0;

  /** `now`: the wall clock (ms) the end of the voice is stamped with; a test passes a virtual one. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Audio received so far, in ms of 16 kHz audio. */
  get receivedMs(): number {
    return this.received;
  }

  /** Wall time the voice last ended (first_audio_ms counts from it). */
  get lastVoiceAt(): number {
    return this.voiceEndedAt;
  }

  /** Breath lingers after the voice (the words' wait is then longer). */
  get breathy(): boolean {
    return this.breathyNow;
  }

  /**
   * The voice is quiet now: the latest window is under the VAD's end threshold, or the energy has
   * been under the voice's level for ENERGY_QUIET_MS, and no voice came back. True from the first
   * quiet window, before the VAD's 96 ms of silence end the stretch.
   */
  get voiceQuiet(): boolean {
    return (this.quietNow || this.energyQuiet()) && !this.voiceBack;
  }

  /** The last ENERGY_QUIET_MS of audio received stayed under the level of the voice before them. */
  private energyQuiet(): boolean {
    const { hops, firstHopMs } = this.energy.hops();
    const nowMs = this.energy.timeMs;
    const end = acousticVoiceEnd(hops, firstHopMs, nowMs, noiseFloor(hops));
    return end.voicedRms !== null && nowMs - end.endMs >= ENERGY_QUIET_MS;
  }

  /** The latest VAD window heard voice (enough of it drops a speculation in flight). */
  get voiceNow(): boolean {
    return this.voicedNow;
  }

  /** Audio (ms) received since the recogniser's words last changed. */
  get wordsUnchangedMs(): number {
    return this.received - this.partialAtMs;
  }

  /** An end of turn is scheduled. */
  get pending(): boolean {
    return this.eotAtMs !== null;
  }

  /** Audio received (before the VAD scores it). */
  audio(pcm: Int16Array): void {
    this.received += pcm.length / 16;
    this.energy.push(pcm);
  }

  /** The recogniser's words changed: a deadline is not taken before they have settled a while. */
  wordsChanged(): void {
    this.partialAtMs = this.received;
  }

  /** The VAD ended a stretch of speech; `atMs` is the end of its last voiced window. */
  speechEnd(atMs: number): void {
    this.setVoiceEnd(atMs);
    // The silent windows the VAD waited through already tell whether breath lingers.
    this.tail = this.recent.filter((w) => w.atMs >= atMs).map((w) => w.p);
    this.breathyNow = breathyTail(this.tail);
    this.voiceBack = false;
  }

  /**
   * One VAD window: audio time moves on; after the voice ended, breath and voice coming back
   * count. True when the deadline must be set again (the end moved, or breath changed the wait).
   */
  window(atMs: number, p: number, vadSpeaking: boolean): boolean {
    this.vadMs = atMs + WINDOW_MS;
    this.quietNow = p < VOICE_GONE_PROBABILITY;
    this.voicedNow = p >= VOICE_BACK_PROBABILITY;
    this.recent.push({ atMs, p });
    if (this.recent.length > 8) this.recent.shift();
    if (this.voiceEndMs === null || vadSpeaking) return false;
    this.tail.push(p);
    if (this.tail.length > 8) this.tail.shift();
    if (p >= VOICE_BACK_PROBABILITY || (this.voiceBack && p >= VOICE_GONE_PROBABILITY)) {
      this.voiceBack = true;
      this.quietWindows = 0;
      this.backEndMs = atMs + WINDOW_MS;
    } else if (this.voiceBack && ++this.quietWindows * WINDOW_MS >= VAD_MIN_SILENCE_MS) {
      // Voice came back too short for speech (a word under the VAD's minimum, a cough): the waits
      // count again from where it ended.
      this.voiceBack = false;
      this.setVoiceEnd(this.backEndMs);
      this.breathyNow = breathyTail(this.tail);
      return true;
    }
    const breathy = breathyTail(this.tail);
    if (breathy === this.breathyNow) return false;
    this.breathyNow = breathy;
    return this.eotAtMs !== null;
  }

  /** Sets the deadline `waitMs` of silence after the voice's end; the audio (ms) still to come before it. */
  schedule(waitMs: number): number {
    this.eotAtMs = turnDeadlineMs(this.voiceEndMs ?? this.vadMs, waitMs, this.partialAtMs);
    return Math.max(0, this.eotAtMs - this.vadMs);
  }

  /**
   * The deadline is reached (never while voice is coming back): scored by the VAD, or, for the
   * less than one window the VAD has not scored yet (a window waits for 512 samples), received
   * and under the voiced energy. A VAD running behind (a loaded box) gets no such bridge: its
   * windows decide, so breath and voice coming back are still heard.
   */
  due(): boolean {
    if (this.eotAtMs === null || this.voiceBack) return false;
    if (this.vadMs >= this.eotAtMs) return true;
    return this.eotAtMs - this.vadMs < WINDOW_MS && this.voicedRms !== null && this.energy.quiet(this.vadMs, this.eotAtMs, this.voicedRms);
  }

  /** Forgets the pending end (a turn taken, words dropped, voice started again). */
  clear(): void {
    this.eotAtMs = null;
    this.voiceEndMs = null;
    this.voicedRms = null;
    this.voiceBack = false;
    this.tail = [];
    this.breathyNow = false;
  }

  /**
   * The waits count from the acoustic end: the VAD's end moved back to where the energy fell.
   * Audio arrives in real time, so the wall time of that end is now less the audio since.
   */
  private setVoiceEnd(vadEndMs: number): void {
    const end = this.energy.voiceEnd(vadEndMs);
    // Voice that came back never moves the end earlier than the one before it.
    this.voiceEndMs = Math.max(end.endMs, this.voiceEndMs ?? 0);
    this.voicedRms = end.voicedRms;
    this.voiceEndedAt = this.now() - Math.max(0, this.received - end.endMs);
  }
}
