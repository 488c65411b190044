// Implements: the wall-clock timers the turn-taking core asks for (`arm`/`disarm` actions), one
// per TurnTimer name; a fired timer is handed back to the core. The barge-in hold's timer never
// keeps the process alive.
import type { TurnTimer } from "./turn-actions.ts";

export class TurnTimers {
  private readonly timers = new Map<TurnTimer, ReturnType<typeof setTimeout>>();

  constructor(private readonly fired: (timer: TurnTimer) => void) {}

  arm(timer: TurnTimer, ms: number): void {
    this.disarm(timer);
    const t = setTimeout(() => (this.timers.delete(timer), this.fired(timer)), ms);
    if (timer === "barge_in") t.unref?.(); // a held avatar never keeps the process alive
    this.timers.set(timer, t);
  }

  disarm(timer: TurnTimer): void {
    clearTimeout(this.timers.get(timer));
    this.timers.delete(timer);
  }

  clear(): void {
    for (const timer of [...this.timers.keys()]) this.disarm(timer);
  }
}
