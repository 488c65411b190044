// Implements: barge-in in two steps on the voice socket (`state` `bargein`; issue 14 item 3).
// Step 1: at the first evidence of a voice over the speaking avatar, its speech is held at the
// next frame (the timeline stops, nothing queued is lost). Step 2: confirmed speech that wants
// the floor interrupts as before; a cough, a click or a lone backchannel releases the hold and
// the avatar goes on from the frame it stopped at. Time is counted in VAD windows (audio time),
// so the decision is the same on a loaded machine. The decision core is pure; the controller
// below it joins it to the socket through a small host.
import { WINDOW_MS } from "../../stt/vad-segmenter.ts";
import type { Timers } from "./pause.ts";

/** The thresholds (docs/api-notes.md "Barge-in"). */
export const BARGE_RULES = {
  /** One VAD window: 512 samples of 16 kHz audio. */
  windowMs: WINDOW_MS,
  /** Hold on two consecutive windows at or above this probability ... */
  onsetProbability: 0.5,
  onsetWindows: 2,
  /** ... or on one window at or above this one. */
  onsetStrongProbability: 0.85,
  /** Once held, a window at or above this counts as voice (Silero's decay after a short sound lies below) ... */
  voicedProbability: 0.5,
  /** ... and one under this as quiet (the VAD's end threshold); in between, neither. */
  quietProbability: 0.35,
  /** Voiced time that makes it speech (the VAD's minimum speech) ... */
  confirmSpeechMs: 250,
  /** ... which takes the floor with one recognised word that is not a backchannel, */
  /** or on its own once this long (no words needed) ... */
  confirmLongMs: 600,
  /** ... or this long when every word heard so far is a backchannel. */
  backchannelLongMs: 1200,
  /** Silence after the voice that ends the hold of a noise (shorter than speech). */
  releaseQuietMs: 160,
  /** After speech-long voice, extra silence to wait for the recogniser's words before resuming. */
  wordWaitMs: 192,
  /** Wall clock: a hold no audio decides (the client stopped sending) resumes after this. */
  backstopMs: 3000,
} as const;

/** Words that acknowledge without asking for the floor (alone, or only with each other). */
export const BACKCHANNELS = new Set([
  "mm-hmm",
  "mm",
  "hmm",
  "hm",
  "mhm",
  "mmhmm",
  "mmm",
  "uh-huh",
  "uh",
  "huh",
  "um",
  "umm",
  "er",
  "erm",
  "ah",
  "oh",
  "yeah",
  "yep",
  "yes",
  "right",
  "okay",
  "ok",
  "sure",
  "alright",
]);

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);

/** Whether words heard over the avatar ask for the floor (one that is not a backchannel). */
export function wantsFloor(text: string): boolean {
  // "mm hmm" and "uh huh" come out of some recognisers as two words.
  return words(text).some((w) => !BACKCHANNELS.has(w));
}

export type BargeAction = "hold" | "release" | "barge" | null;

/** The decision: fed one VAD probability per window and the words heard since the hold. */
export class BargeDecision {
  private run = 0;
  private heldNow = false;
  private voicedMs = 0;
  private quietMs = 0;
  private text = "";

  get holding(): boolean {
    return this.heldNow;
  }

  /** One VAD window; `avatarSpeaking`: whether there is speech to hold. */
  window(probability: number, avatarSpeaking: boolean): BargeAction {
    const r = BARGE_RULES;
    if (!this.heldNow) {
      this.run = probability >= r.onsetProbability ? this.run + 1 : 0;
      if (!avatarSpeaking || (this.run < r.onsetWindows && probability < r.onsetStrongProbability)) return null;
      return this.hold(this.run * r.windowMs);
    }
    if (probability >= r.voicedProbability) this.voicedMs += r.windowMs;
    this.quietMs = probability < r.quietProbability ? this.quietMs + r.windowMs : 0;
    return this.decide();
  }

  /** The VAD confirmed speech (its minimum speech) before this decision saw an onset. */
  speechStarted(avatarSpeaking: boolean): BargeAction {
    if (this.heldNow || !avatarSpeaking) return null;
    return this.hold(BARGE_RULES.confirmSpeechMs);
  }

  /** Words recognised since the hold began (partial or final). */
  heard(text: string): BargeAction {
    if (!this.heldNow) return null;
    this.text = text;
    return this.decide();
  }

  /** The hold ended elsewhere (an interrupt, the socket muted or closed). */
  reset(): void {
    this.heldNow = false;
    this.run = 0;
    this.voicedMs = 0;
    this.quietMs = 0;
    this.text = "";
  }

  private hold(voicedMs: number): BargeAction {
    this.heldNow = true;
    this.voicedMs = voicedMs;
    this.quietMs = 0;
    this.text = "";
    return "hold";
  }

  private decide(): BargeAction {
    const r = BARGE_RULES;
    const floor = wantsFloor(this.text);
    const onlyBackchannels = !floor && this.text.trim() !== "";
    const speech = this.voicedMs >= r.confirmSpeechMs;
    if ((speech && floor) || this.voicedMs >= (onlyBackchannels ? r.backchannelLongMs : r.confirmLongMs)) return this.end("barge");
    if (this.quietMs < r.releaseQuietMs) return null;
    // A noise (shorter than speech) or a backchannel resumes at once; speech-long voice with no
    // words yet waits a little for the recogniser.
    if (!speech || onlyBackchannels || this.quietMs >= r.releaseQuietMs + r.wordWaitMs) return this.end("release");
    return null;
  }

  private end(action: "release" | "barge"): BargeAction {
    this.reset();
    return action;
  }
}

/** What the controller needs from the voice socket. */
export interface BargeHost {
  /** Whether the avatar is speaking (or its speech is held). */
  speaking(): boolean;
  /** Pauses the avatar's speech at the next frame. */
  hold(): void;
  /** Resumes it from the frame it paused at; the words of the noise or backchannel are dropped. */
  release(): void;
  /** Interrupts as today (`state {speaking: false, bargein: true}`). */
  bargeIn(): void;
}

/** The backstop's timer by default: it never keeps the process alive on its own. */
const unrefTimers: Timers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Joins the decision to the socket; `enabled: false` (BOX_BARGE_PAUSE=off) keeps the one-step rule.
 * `timers`: where the wall-clock backstop is armed (the turn core turns it into an action).
 */
export class BargeInController {
  private readonly decision = new BargeDecision();
  /** The words already heard when the hold began (they belong to something else). */
  private before = "";
  private released = false;
  private backstop: unknown = null;

  constructor(
    private readonly host: BargeHost,
    readonly enabled = true,
    private readonly timers: Timers = unrefTimers,
  ) {}

  /** True while a hold waits for its decision: the socket takes no turn meanwhile. */
  get holding(): boolean {
    return this.decision.holding;
  }

  /**
   * After a release, until the next voice: the recogniser's late words for the noise or the
   * backchannel are dropped and take no turn.
   */
  get dropsWords(): boolean {
    return this.released;
  }

  window(probability: number, text: string): void {
    if (!this.enabled) return;
    const held = this.decision.holding;
    // A new voice after a release: its words are the person's again.
    if (!held && probability >= BARGE_RULES.onsetProbability) this.released = false;
    this.act(this.decision.window(probability, this.host.speaking()), text, held);
  }

  /** The VAD's speech_start: true when this controller handles it (no one-step barge-in). */
  speechStarted(text: string): boolean {
    if (!this.enabled) return false;
    if (this.decision.holding) return true;
    this.released = false;
    const action = this.decision.speechStarted(this.host.speaking());
    this.act(action, text, false);
    return action !== null;
  }

  heard(text: string): void {
    if (!this.enabled || !this.decision.holding) return;
    const since = text.startsWith(this.before) ? text.slice(this.before.length) : text;
    this.act(this.decision.heard(since), text, true);
  }

  /** Ends a hold without a decision (mute, teardown): the avatar goes on. */
  stop(): void {
    if (this.backstop) this.timers.clear(this.backstop);
    if (!this.decision.holding) return;
    this.decision.reset();
    this.released = true;
    this.host.release();
  }

  private act(action: BargeAction, text: string, wasHeld: boolean): void {
    if (action && this.backstop) this.timers.clear(this.backstop);
    if (action === "hold") {
      this.before = text;
      this.released = false;
      this.backstop = this.timers.set(() => this.stop(), BARGE_RULES.backstopMs);
      this.host.hold();
    } else if (action === "release" && wasHeld) {
      this.released = true;
      this.host.release();
    } else if (action === "barge") this.host.bargeIn();
  }
}
