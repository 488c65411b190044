// Implements: the turn engine's moderation step: every clause and the final transcript pass a
// configurable word/pattern screen before they are spoken or stored. Matches are removed.

export interface ModerationOptions {
  /** Whole words, matched case-insensitively. */
  words?: string[];
  /** Regular-expression sources, matched case-insensitively. */
  patterns?: string[];
}

/** A small default list; deployments replace it (BOX_MODERATION_WORDS / _PATTERNS). */
export const DEFAULT_BLOCKED_WORDS = ["fuck", "fucking", "shit", "cunt", "motherfucker"];

export class ModerationScreen {
  private readonly re: RegExp | null;

  constructor(options: ModerationOptions = {}) {
    const words = (options.words ?? DEFAULT_BLOCKED_WORDS).filter(Boolean).map((w) => `\\b${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`);
    const all = [...words, ...(options.patterns ?? [])];
    this.re = all.length ? new RegExp(all.map((s) => `(?:${s})`).join("|"), "giu") : null;
  }

  /** The text as the screen leaves it, and whether anything was removed. */
  screen(text: string): { text: string; flagged: boolean } {
    if (!this.re) return { text, flagged: false };
    let flagged = false;
    const out = text.replace(this.re, () => {
      flagged = true;
      return "";
    });
    return {
      text: flagged
        ? out
            .replace(/\s{2,}/g, " ")
            .replace(/\s+([,.!?;:])/g, "$1")
            .trim()
        : text,
      flagged,
    };
  }
}
