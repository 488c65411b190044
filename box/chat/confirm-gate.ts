// Implements: the confirmation gate of a speculative turn (a reply started during the end-of-turn
// wait): the turn engine, its live speech and the voice socket share it, so it lives on its own
// and none of them imports another for it.

/**
 * The confirmation gate of a speculative turn. Work held before the decision runs, in order, at
 * `confirm()`; after it, at once. `drop()` discards it all. Decided once.
 */
export class ConfirmGate {
  state: "pending" | "confirmed" | "dropped" = "pending";
  /** Resolves true when confirmed, false when dropped. */
  readonly decided: Promise<boolean>;
  private held: (() => void)[] = [];
  private settle!: (ok: boolean) => void;

  constructor() {
    this.decided = new Promise((r) => (this.settle = r));
  }

  get pending(): boolean {
    return this.state === "pending";
  }

  /** Runs `fn` now once confirmed, at confirmation while pending, never once dropped. */
  hold(fn: () => void): void {
    if (this.state === "confirmed") fn();
    else if (this.state === "pending") this.held.push(fn);
  }

  confirm(): void {
    if (this.state !== "pending") return;
    this.state = "confirmed";
    const held = this.held;
    this.held = [];
    for (const fn of held) fn();
    this.settle(true);
  }

  drop(): void {
    if (this.state !== "pending") return;
    this.state = "dropped";
    this.held = [];
    this.settle(false);
  }
}
