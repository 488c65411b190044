// Implements: the words heard since the last turn on the voice socket: the recogniser's finals and
// its latest partial joined into the caption's text, and the late final of words a turn already
// took from a partial (dropped, or cut down to what is new). Pure; the turn core (turn-core.ts)
// decides what they mean.

/** Words as compared: case and punctuation aside. */
export const normaliseWords = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

export class HeardWords {
  private finals: string[] = [];
  private partial = "";
  /** Words taken into a turn from a partial: the recogniser's late final for them is dropped. */
  private consumed = "";
  /** A caption is on screen: `partial` frames went out since it was last cleared. */
  private shown = false;

  /** The words so far: the finals, then the partial. */
  get text(): string {
    return [...this.finals, this.partial].filter(Boolean).join(" ").trim();
  }

  /** The recogniser's latest partial; true when it differs from the one before. */
  partialIs(text: string): boolean {
    const changed = text !== this.partial;
    this.partial = text;
    if (text) this.shown = true;
    return changed;
  }

  /** A final from the recogniser; false when it only repeats words a turn already took. */
  final(text: string): boolean {
    this.partial = "";
    if (this.consumed) {
      const late = this.consumed;
      this.consumed = "";
      if (normaliseWords(text) === normaliseWords(late)) return false;
      if (normaliseWords(text).startsWith(normaliseWords(late))) text = text.trim().slice(late.trim().length).trim();
    }
    if (text) this.finals.push(text);
    return true;
  }

  /**
   * A turn takes the words: all is forgotten, and a partial among them is remembered so its late
   * final is dropped. `settle`: the turn took a partial, the recogniser is to be told to settle.
   */
  take(): { text: string; settle: boolean } {
    const text = this.text;
    const settle = this.partial !== "";
    if (settle) this.consumed = this.partial;
    this.clear();
    return { text, settle };
  }

  clear(): void {
    this.finals = [];
    this.partial = "";
  }

  /** The caption is gone; true when one was on screen (a `caption_clear` is then owed). */
  hideCaption(): boolean {
    const was = this.shown;
    this.shown = false;
    return was;
  }
}
