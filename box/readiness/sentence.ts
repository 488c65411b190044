// Implements: Readiness `reason` ("sentence naming what is down") and the details inside it: text
// from upstreams ends in its own punctuation, so it is trimmed to a clause before a sentence ends it.

/** Trimmed, one space between words, no trailing full stop or separator (the sentence adds its own). */
export function clause(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.,;:]+$/, "");
}

/** Clauses joined into one sentence: capitalised, ending in exactly one full stop; empty for none. */
export function sentence(clauses: string[]): string {
  const parts = clauses.map(clause).filter(Boolean);
  if (!parts.length) return "";
  const text = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")}, and ${parts[parts.length - 1]}`;
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[?!]$/.test(text) ? "" : ".");
}
