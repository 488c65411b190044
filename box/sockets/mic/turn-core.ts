// Implements: the voice socket's turn-taking as a pure core (issue 26 item 2): partial and final
// words into the caption, the end of turn (`endpoint` frames, waits in audio time), speculation,
// barge-in and skip_turn's held words. Events in (audio, VAD windows and speech start/end, words,
// timers firing, the turn's start and end, the client's mute and bye); actions out, in order, to
// one sink (send a frame, run / speculate / confirm / drop a turn, hold / release / interrupt the
// avatar's speech, arm a timer). No socket, no timer and no clock of its own: the adapter
// (mic-socket.ts) does what the actions say and passes the wall clock in, so a test drives it all
// in virtual time (turn-core.test.ts).
import type { VoiceFrame } from "../../../shared/wire/socket-frames.ts";
import type { VadEvent } from "../../stt/vad-segmenter.ts";
import { BargeInController } from "./barge-in.ts";
import { TurnEndClock } from "./end-of-turn.ts";
import type { Timers } from "./pause.ts";
import { endpointFor, isRealUtterance, speculationReady } from "./turn-taking.ts";
import type { Senses, TurnAction, TurnCoreOptions, TurnTimer } from "./turn-actions.ts";
import { HeardWords, normaliseWords as normalise } from "./heard-words.ts";
import { Speculation } from "./speculation.ts";

/** End of turn counts audio time; this wall-clock margin only rescues a client that stopped sending audio. */
export const EOT_BACKSTOP_MS = 1000;
/** After a barge-in, the person's last words join what they say next for this long. */
const BARGE_HOLD_WORDS_MS = 6_000;

export class TurnCore {
  private senses: Senses = { vadSpeaking: false, avatarSpeaking: false };
  private mutedNow = false;
  private endingNow = false;
  private readonly words = new HeardWords();
  /** Speech was heard since the last turn: words alone (noise, a stray recognition) take no turn. */
  private heardSpeech = false;
  /** Where the voice ended and when the turn is due, in audio time. */
  private readonly clock: TurnEndClock;
  /** The speculative turn in flight (at most one). */
  private readonly spec: Speculation;
  private turnActive = false;
  private held: { text: string; until: number } | null = null;
  private lastUserText = "";
  private bargeInCount = 0;
  /** Audio received (ms) when the end of turn's backstop was armed; null: not armed. */
  private backstopArmedAt: number | null = null;
  /** The barge-in hold's backstop, armed as the `barge_in` timer. */
  private bargeBackstop: { fn: () => void } | null = null;
  /** Barge-in in two steps: hold the avatar at the first voice, then interrupt or resume. */
  private readonly barge: BargeInController;

  constructor(
    private readonly o: TurnCoreOptions,
    private readonly act: (a: TurnAction) => void,
  ) {
    this.clock = new TurnEndClock(o.now);
    this.spec = new Speculation(act);
    const host = {
      speaking: () => this.senses.avatarSpeaking,
      hold: () => (this.act({ type: "hold_speech" }), this.clearTimers()),
      release: () => this.releaseHeld(),
      bargeIn: () => (this.bargeIn(), this.senses.vadSpeaking || this.scheduleEndOfTurn()),
    };
    const timers: Timers = {
      set: (fn, ms) => {
        this.bargeBackstop = { fn };
        this.act({ type: "arm", timer: "barge_in", ms });
        return this.bargeBackstop;
      },
      clear: (handle) => {
        if (handle !== this.bargeBackstop) return; // fired or replaced already
        this.bargeBackstop = null;
        this.act({ type: "disarm", timer: "barge_in" });
      },
    };
    this.barge = new BargeInController(host, o.bargePause, timers);
  }

  get muted(): boolean {
    return this.mutedNow;
  }

  /** The call is ending (end_call): nothing more is heard. */
  get ending(): boolean {
    return this.endingNow;
  }

  /** Wall time the voice last ended: a turn's first_audio_ms counts from it. */
  get lastVoiceAt(): number {
    return this.clock.lastVoiceAt;
  }

  /** Barge-ins so far: a line spoken by a system tool was talked over when this moved. */
  get bargeIns(): number {
    return this.bargeInCount;
  }

  // ---- events in ------------------------------------------------------------------------

  /**
   * Microphone audio received (before the VAD scores it): audio time and energy move on. Quiet
   * energy is checked here, as the audio arrives, not at the VAD's next 32 ms window: a reply that
   * may start early starts with the chunk that made the quiet long enough.
   */
  audio(pcm: Int16Array): void {
    this.clock.audio(pcm);
    if (this.heardSpeech && this.clock.voiceQuiet) this.speculate();
  }

  /** One event of the VAD for the audio received. */
  vad(e: VadEvent, senses: Senses): void {
    this.senses = senses;
    if (e.type === "probability") {
      this.barge.window(e.probability, this.text());
      if (this.clock.window(e.atMs, e.probability, senses.vadSpeaking)) this.scheduleEndOfTurn();
      // At the voice's first quiet window the reply may start early (speculate decides); quiet
      // energy counts before Silero's probability has decayed (its lag is not voice).
      else if (this.heardSpeech && this.clock.voiceQuiet) this.speculate();
      else if (this.clock.voiceNow) this.spec.voiced();
    } else if (e.type === "speech_start") this.onSpeechStart();
    // The VAD reports where in the audio the voice ended; audio arrives in real time.
    else if (e.type === "speech_end") this.onSpeechEnd(e.atMs);
  }

  /** The VAD's events for one push are all in: the turn is taken once its deadline is reached. */
  vadDone(senses: Senses): void {
    this.senses = senses;
    if (this.clock.due()) this.endOfTurn();
  }

  /** The recogniser's words so far for the current stretch. */
  partialWords(text: string, senses: Senses): void {
    this.senses = senses;
    if (this.mutedNow || this.endingNow || this.barge.dropsWords) return;
    if (this.words.partialIs(text)) this.clock.wordsChanged();
    if (text) this.send({ type: "partial", text: this.text() });
    this.barge.heard(this.text());
    if (!this.heardSpeech) return;
    if (!senses.vadSpeaking) this.scheduleEndOfTurn();
    else {
      this.send({ type: "endpoint", ...endpointFor(this.text(), true) });
      this.speculate(); // new words: one prepared on the old ones goes now
    }
  }

  /** The recogniser settled words. */
  finalWords(text: string, senses: Senses): void {
    this.senses = senses;
    if (this.mutedNow || this.endingNow || this.barge.dropsWords) return;
    const before = this.text();
    if (!this.words.final(text)) return; // already taken from the partial
    this.barge.heard(this.text());
    // The recogniser revised the words during the wait: decide (and speculate) on the new ones.
    if (normalise(this.text()) !== normalise(before) && this.heardSpeech && this.clock.pending && !senses.vadSpeaking) {
      this.clock.wordsChanged();
      this.scheduleEndOfTurn();
    }
  }

  /** A timer armed by an `arm` action ran out. */
  fired(timer: TurnTimer, senses: Senses): void {
    this.senses = senses;
    if (timer === "barge_in") {
      const backstop = this.bargeBackstop;
      this.bargeBackstop = null;
      return backstop?.fn();
    }
    const armedAt = this.backstopArmedAt;
    if (armedAt === null) return;
    this.backstopArmedAt = null;
    // Audio still flows: audio time decides, the backstop waits on.
    if (this.clock.receivedMs > armedAt) this.armBackstop(EOT_BACKSTOP_MS);
    else this.endOfTurn();
  }

  /** A turn began (a speculative one: when it was confirmed); turnEnded: its last frame went out. */
  turnStarted(message: string): void {
    this.lastUserText = message;
    this.turnActive = true;
  }

  turnEnded(): void {
    this.turnActive = false;
  }

  /** The client's `mute`: muted, nothing is heard and the words so far go. */
  mute(muted: boolean): void {
    this.mutedNow = muted;
    if (muted) this.barge.stop(), this.dropWords();
  }

  /** The client's `bye`. */
  bye(): void {
    this.dropWords();
  }

  /** skip_turn: these words join what the person says next, for `ms`. */
  holdWords(text: string, ms: number): void {
    this.held = { text, until: this.o.now() + ms };
  }

  /** end_call: the call is ending. */
  endCall(): void {
    this.endingNow = true;
  }

  /** The socket closed: a hold resumes, timers and a speculation go. */
  close(): void {
    this.barge.stop();
    this.clearTimers();
    this.spec.drop();
  }

  // ---- turn-taking ----------------------------------------------------------------------

  private send(frame: VoiceFrame): void {
    this.act({ type: "send", frame });
  }

  private onSpeechStart(): void {
    this.heardSpeech = true;
    this.act({ type: "activity" });
    this.clearTimers();
    // The person went on speaking: the reply prepared on their earlier words goes without a sound.
    this.spec.drop();
    if (this.barge.speechStarted(this.text())) return; // held: barge-in.ts decides
    // Coughs are shorter than the VAD's minimum speech, so they never get here.
    if (this.turnActive || this.senses.avatarSpeaking) this.bargeIn();
  }

  /** `atMs`: where the VAD says the voice ended (the end of its last voiced window). */
  private onSpeechEnd(atMs: number): void {
    this.clock.speechEnd(atMs);
    this.scheduleEndOfTurn();
  }

  private text(): string {
    return this.words.text;
  }

  private scheduleEndOfTurn(): void {
    if (this.barge.holding || this.barge.dropsWords) return; // no turn while held, none for a backchannel
    const ep = endpointFor(this.text(), this.senses.vadSpeaking, { breathy: this.clock.breathy });
    this.send({ type: "endpoint", ...ep });
    if (ep.reason === "speaking") return;
    // wait_ms is the whole silence wanted, counted in audio from where the voice ended.
    this.armBackstop(this.clock.schedule(ep.wait_ms) + EOT_BACKSTOP_MS);
    this.speculate();
  }

  /** Wall clock only for a client that stopped sending audio: while audio flows, audio time decides. */
  private armBackstop(ms: number): void {
    this.backstopArmedAt = this.clock.receivedMs;
    this.act({ type: "arm", timer: "end_of_turn", ms });
  }

  /** The words the turn would answer now: held words (skip_turn, a barge-in) join the new ones. */
  private messageFor(text: string): { message: string; held: string } {
    const held = this.held && this.held.until > this.o.now() ? this.held.text : "";
    return { message: held ? `${held} ${text}` : text, held };
  }

  /**
   * Starts the reply on the words so far behind a confirmation gate, from the voice's first quiet
   * window (before the VAD ends the stretch), once the words look complete and have settled
   * (speculationReady). Words that changed drop the one in flight; the next starts when they settle.
   */
  private speculate(): void {
    if (!this.o.speculative || this.turnActive || this.endingNow || this.mutedNow || this.barge.holding || this.barge.dropsWords) return;
    const text = this.text();
    const { message } = this.messageFor(text);
    if (this.spec.answers(message)) return; // still the words it answers
    this.spec.drop(); // at most one in flight: the words changed
    if (speculationReady(text, this.clock.voiceQuiet, this.clock.wordsUnchangedMs)) this.spec.start(message);
  }

  /** The silence lasted: the words so far become a turn (or are cleared as not worth one). */
  private endOfTurn(): void {
    if (this.senses.vadSpeaking) return;
    this.clearTimers();
    this.act({ type: "forget_voice_history" }); // in a silence: a fresh state for the next words
    // Not waiting for the recogniser: it is told to settle, and its final for these words is dropped.
    const { text, settle } = this.words.take();
    if (settle) this.act({ type: "finalize_words" });
    this.heardSpeech = false;
    if (!isRealUtterance(text)) {
      this.spec.drop();
      if (this.words.hideCaption()) this.send({ type: "caption_clear" });
      return;
    }
    this.words.hideCaption();
    const { message, held } = this.messageFor(text);
    this.held = null;
    this.send({ type: "final", text, continues: held !== "" });
    this.act({ type: "end_pause" });
    // Prepared on these very words during the wait: it goes out now (its held frames after `final`).
    if (!this.spec.confirm(message)) this.act({ type: "turn", message });
  }

  /** A noise or a backchannel: the avatar goes on; its words (if any) are dropped. */
  private releaseHeld(): void {
    this.act({ type: "release_speech" });
    this.act({ type: "finalize_words" });
    this.heardSpeech = false;
    this.dropWords();
  }

  private bargeIn(): void {
    this.heardSpeech = true;
    this.bargeInCount++;
    this.act({ type: "interrupt" });
    this.send({ type: "state", speaking: false, bargein: true });
    // The person took the floor back: their last words join what they say next.
    if (this.lastUserText) this.held = { text: this.lastUserText, until: this.o.now() + BARGE_HOLD_WORDS_MS };
  }

  private dropWords(): void {
    this.clearTimers();
    this.spec.drop();
    this.words.clear();
    if (this.words.hideCaption()) this.send({ type: "caption_clear" });
  }

  private clearTimers(): void {
    if (this.backstopArmedAt !== null) this.act({ type: "disarm", timer: "end_of_turn" });
    this.backstopArmedAt = null;
    this.clock.clear();
  }
}
