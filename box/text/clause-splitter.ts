// Implements: the turn engine's clause cutting — hand each clause to the voice as soon as it is
// complete. A pure core: push text deltas, get finished clauses; flush at the end of the reply.
// The first piece of a reply may be a short phrase (issue 23 item 2): the voice starts on it
// while the model is still writing the rest; later pieces are whole clauses.

const ABBREVIATIONS = new Set(["mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "approx", "no", "fig"]);
/** Marks that end a phrase (with a space after them); a dash counts only when spaced (" - ", " — "). */
const SOFT = new Set([",", ";", ":"]);
const DASHES = new Set(["—", "–", "-"]);
/** CJK commas need no space after them; with no spaces to count words, characters count. */
const CJK_SOFT = new Set(["，", "、", "；", "："]);
const WORD = /[\p{L}\p{N}]/u;
/** Inside a word: "don't" counts as one word. */
const IN_WORD = /[\p{L}\p{N}'’]/u;

export interface ClauseOptions {
  /** A comma, semicolon or colon ends a clause only once this many characters are waiting. */
  minSoftChars?: number;
  /** Force a cut at a space once a clause grows this long with no punctuation. */
  maxChars?: number;
  /**
   * The first piece goes at the first comma, semicolon, colon or spaced dash that follows at
   * least this many words (0: off, the first piece is a whole clause like the rest).
   */
  firstPhraseWords?: number;
}

/** A model reply's rule: the first phrase of 3 words or more goes to the voice at once. */
export const REPLY_FIRST_PHRASE_WORDS = 3;

export class ClauseSplitter {
  private buf = "";
  private readonly minSoft: number;
  private readonly max: number;
  private readonly firstWords: number;
  /** Nothing was cut yet: the first-phrase rule still applies. */
  private first = true;

  constructor(options: ClauseOptions = {}) {
    this.minSoft = options.minSoftChars ?? 48;
    this.max = options.maxChars ?? 220;
    this.firstWords = options.firstPhraseWords ?? 0;
  }

  /** Adds a delta; returns the clauses it completed, in order. */
  push(delta: string): string[] {
    this.buf += delta;
    const out: string[] = [];
    for (let cut = this.findCut(); cut > 0; cut = this.findCut()) {
      const clause = this.buf.slice(0, cut).trim();
      this.buf = this.buf.slice(cut);
      if (clause) {
        out.push(clause);
        this.first = false;
      }
    }
    return out;
  }

  /** The rest of the reply, if any. */
  flush(): string[] {
    const rest = this.buf.trim();
    this.buf = "";
    if (rest) this.first = false;
    return rest ? [rest] : [];
  }

  private findCut(): number {
    const b = this.buf;
    const phrase = this.first && this.firstWords > 0;
    let words = 0;
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      const next = b[i + 1];
      // Counts a word at its first letter or digit.
      if (WORD.test(c) && (i === 0 || !IN_WORD.test(b[i - 1]))) words++;
      if (c === "\n") return i + 1;
      // A cut needs to see the following character, so "3." waits for "3.5" or "3. ", and "1," for "1,000".
      // The first phrase's comma after a letter cannot grow into a number: it goes without waiting
      // for the next token (at 50 tokens/s that wait is 20 ms of the first word's delay).
      if (next === undefined) {
        if (phrase && SOFT.has(c) && /\p{L}/u.test(b[i - 1] ?? "") && words >= this.firstWords && !this.afterAbbreviation(i)) return i + 1;
        break;
      }
      // CJK full stops end a sentence with no space after them.
      if (c === "。" || c === "！" || c === "？") return i + 1;
      const followedBySpace = next === " " || next === "\n";
      if ((c === "." || c === "!" || c === "?" || c === "…") && followedBySpace) {
        if (c === "." && this.isAbbreviation(i)) continue;
        return i + 1;
      }
      if (SOFT.has(c) && followedBySpace) {
        if (i + 1 >= this.minSoft) return i + 1;
        if (phrase && words >= this.firstWords && !this.afterAbbreviation(i)) return i + 1;
      }
      if (phrase && DASHES.has(c) && followedBySpace && b[i - 1] === " " && words >= this.firstWords) return i + 1;
      if (phrase && CJK_SOFT.has(c) && i + 1 >= 2 * this.firstWords) return i + 1;
    }
    if (b.length > this.max) {
      const sp = b.lastIndexOf(" ", this.max);
      return sp > 0 ? sp + 1 : this.max;
    }
    return 0;
  }

  private isAbbreviation(dot: number): boolean {
    const m = /([A-Za-z.]+)$/.exec(this.buf.slice(Math.max(0, dot - 8), dot));
    if (!m) return false;
    const word = m[1].toLowerCase();
    return ABBREVIATIONS.has(word) || /^[a-z]$/i.test(word);
  }

  /** "e.g.," or "Dr.,": a phrase never ends right after an abbreviation (it introduces what follows). */
  private afterAbbreviation(mark: number): boolean {
    return this.buf[mark - 1] === "." && this.isAbbreviation(mark - 1);
  }
}
