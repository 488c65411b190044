// Speaks a turn's clauses into the live session in order, and tells which were actually said.
// A streaming voice is heard from its first audio; the next clause is asked for once the one
// before has all arrived (one provider request at a time).
import type { Tone } from "../../shared/wire/tones.ts";
import type { LiveSession } from "../live/live-session.ts";
import type { Speaker } from "../live/speaker.ts";
import type { VoicePick } from "../tts/accounts.ts";
import type { ConfirmGate } from "./confirm-gate.ts";
import { log } from "../../shared/util/log.ts";

export class LiveSpeech {
  private chain: Promise<void> = Promise.resolve();
  private readonly scheduled = new Map<number, string>();
  private readonly started = new Set<number>();
  private lastId = -1;
  private ended = new Set<number>();
  private readonly off: () => void;
  private wake: () => void = () => {};

  constructor(
    private readonly session: LiveSession,
    private readonly speaker: Speaker,
    private readonly pick: VoicePick,
    private readonly correlationId?: string,
    /** Aborted when the turn is interrupted: clauses still being synthesised are dropped, their streams closed. */
    private readonly signal?: AbortSignal,
    /** A speculative turn: clauses are synthesised now but go into the session only once confirmed. */
    private readonly gate?: ConfirmGate,
  ) {
    this.cut = session.interruptSignal;
    this.off = session.onSpeech((e) => {
      if (!this.scheduled.has(e.utterance.id)) return;
      if (e.kind === "start") this.started.add(e.utterance.id);
      else this.ended.add(e.utterance.id);
      this.wake();
    });
  }

  /**
   * The session's interrupt from when this turn began: an interrupt (or a barge-in) stops the
   * clauses not queued yet even where it no longer reaches the turn itself (its model finished).
   */
  private readonly cut: AbortSignal;

  private get stopped(): boolean {
    return this.session.isClosed || this.signal?.aborted === true || this.cut.aborted;
  }

  /** Synthesises and queues one clause; clauses keep their order. */
  say(text: string, tone: Tone): void {
    // One turn of the event loop first (its I/O phase): the frame that announced this clause is
    // flushed to its socket before synthesis starts (espeak in-thread, under Node, blocks a few
    // ms). setImmediate, not a 1 ms timer: a timer waits at least 1 ms, more on a busy loop, and
    // that wait sat between the model's phrase and the voice's request.
    this.chain = this.chain
      .then(() => new Promise<void>((r) => setImmediate(r)))
      .then(async () => {
        if (this.stopped) return;
        try {
          // The face showing now (a call can switch faces mid-turn) names its voice when nothing else does.
          const g = await this.speaker.live(text, tone, { ...this.pick, avatar: this.session.avatar.avatarId }, this.signal);
          // Prepared early: it goes on arriving here (and the clauses after it wait) until confirmed.
          if (this.gate && !(await this.gate.decided)) return;
          if (this.stopped) return;
          const s = this.session.sayStream(g, this.correlationId);
          this.scheduled.set(s.id, text);
          this.lastId = s.id;
          await g.finished;
        } catch (err) {
          if (!this.signal?.aborted) log.error("clause not spoken", { error: (err as Error).message });
        }
      });
  }

  /**
   * The clauses that were said. When the turn was interrupted that is what had started playing;
   * otherwise it waits for the last clause to finish (or be cut, or the session to close).
   */
  async settled(interrupted: boolean): Promise<string[]> {
    await this.chain;
    if (!interrupted && this.lastId >= 0) {
      // Done when the last clause ended, was cut by an interrupt, or the session closed.
      while (!this.ended.has(this.lastId) && this.session.isPending(this.lastId)) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, 80);
        });
      }
    }
    this.off();
    return [...this.scheduled].filter(([id]) => this.started.has(id)).map(([, text]) => text);
  }
}
