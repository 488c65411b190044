// Implements: the turn engine's clause cutting — hand each clause to the voice as soon as it is
// complete. A pure core: push text deltas, get finished clauses; flush at the end of the reply.

const ABBREVIATIONS = new Set(["mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "approx", "no", "fig"]);

export interface ClauseOptions {
  /** A comma, semicolon or colon ends a clause only once this many characters are waiting. */
  minSoftChars?: number;
  /** Force a cut at a space once a clause grows this long with no punctuation. */
  maxChars?: number;
}

export class ClauseSplitter {
  private buf = "";
  private readonly minSoft: number;
  private readonly max: number;

  constructor(options: ClauseOptions = {}) {
    this.minSoft = options.minSoftChars ?? 48;
    this.max = options.maxChars ?? 220;
  }

  /** Adds a delta; returns the clauses it completed, in order. */
  push(delta: string): string[] {
    this.buf += delta;
    const out: string[] = [];
    for (let cut = this.findCut(); cut > 0; cut = this.findCut()) {
      const clause = this.buf.slice(0, cut).trim();
      this.buf = this.buf.slice(cut);
      if (clause) out.push(clause);
    }
    return out;
  }

  /** The rest of the reply, if any. */
  flush(): string[] {
    const rest = this.buf.trim();
    this.buf = "";
    return rest ? [rest] : [];
  }

  private findCut(): number {
    const b = this.buf;
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      const next = b[i + 1];
      if (c === "\n") return i + 1;
      // A cut needs to see the following character, so "3." waits for "3.5" or "3. ".
      if (next === undefined) break;
      // CJK full stops end a sentence with no space after them.
      if (c === "。" || c === "！" || c === "？") return i + 1;
      const followedBySpace = next === " " || next === "\n";
      if ((c === "." || c === "!" || c === "?" || c === "…") && followedBySpace) {
        if (c === "." && this.isAbbreviation(i)) continue;
        return i + 1;
      }
      if ((c === "," || c === ";" || c === ":") && followedBySpace && i + 1 >= this.minSoft) return i + 1;
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
}
