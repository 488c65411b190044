// Implements: Voice-session pause — Active ⇄ Paused with its four ways out (spoke, resumed,
// timed_out, any reply). Timers come from an injectable clock so tests need not wait 90 s.

export type PauseEnd = "spoke" | "resumed" | "timed_out";

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export class PauseState {
  private handle: unknown = null;
  paused = false;

  constructor(
    private readonly maxSeconds: number,
    private readonly onEnd: (reason: PauseEnd) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  begin(): void {
    this.stopTimer();
    this.paused = true;
    this.handle = this.timers.set(() => this.end("timed_out"), this.maxSeconds * 1000);
  }

  /** Ends a pause; `resumed` answers even with nothing paused (the spec's `resume` row). */
  end(reason: PauseEnd): void {
    const was = this.paused;
    this.stopTimer();
    this.paused = false;
    if (was || reason === "resumed") this.onEnd(reason);
  }

  /** Any avatar reply ends a pause, silently (no frame). */
  endByReply(): void {
    this.stopTimer();
    this.paused = false;
  }

  private stopTimer(): void {
    if (this.handle !== null) this.timers.clear(this.handle);
    this.handle = null;
  }
}
