// Implements: the speculative turn in flight on the voice socket (at most one): the words it
// answers, its confirmation gate and the voice heard since it started. Its actions (start, drop,
// confirm) go to the turn core's sink (turn-core.ts); whether to start one is the core's decision.
import { ConfirmGate } from "../../chat/confirm-gate.ts";
import { WINDOW_MS } from "../../stt/vad-segmenter.ts";
import { normaliseWords } from "./heard-words.ts";
import type { TurnAction } from "./turn-actions.ts";

/** Voice heard after a speculation started that drops it: the VAD's minimum speech. */
const SPEC_DROP_VOICE_MS = 250;

export class Speculation {
  private current: { message: string; gate: ConfirmGate; voicedMs: number } | null = null;

  constructor(private readonly act: (a: TurnAction) => void) {}

  /** The one in flight answers these words. */
  answers(message: string): boolean {
    return this.current !== null && normaliseWords(this.current.message) === normaliseWords(message);
  }

  /** Starts a turn on `message` behind a new gate. */
  start(message: string): void {
    const gate = new ConfirmGate();
    this.current = { message, gate, voicedMs: 0 };
    this.act({ type: "speculate", message, gate });
  }

  /**
   * One voiced window while one is in flight: as long as speech (the VAD's minimum), the person
   * goes on and it is dropped at once (model and voice requests aborted). A shorter sound (the
   * release of a final "t", a click) keeps it: new words or the VAD's speech start would drop it anyway.
   */
  voiced(): void {
    if (this.current && (this.current.voicedMs += WINDOW_MS) >= SPEC_DROP_VOICE_MS) this.drop();
  }

  drop(): void {
    if (this.current) this.act({ type: "drop", gate: this.current.gate });
    this.current = null;
  }

  /**
   * The end of turn on `message`: one prepared on these very words and still pending is confirmed
   * (its held frames go out now); any other is dropped. True when confirmed.
   */
  confirm(message: string): boolean {
    const spec = this.current;
    this.current = null;
    if (spec?.gate.pending && normaliseWords(spec.message) === normaliseWords(message)) {
      this.act({ type: "confirm", gate: spec.gate });
      return true;
    }
    if (spec) this.act({ type: "drop", gate: spec.gate });
    return false;
  }
}
