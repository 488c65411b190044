// Implements: end-of-turn from VAD silence plus the words (the `endpoint` frames), what counts
// as a real turn (coughs and lone murmurs do not), and the skip_turn hold lengths.

const FILLERS = new Set(["um", "umm", "uh", "uhh", "er", "erm", "hmm", "hm", "mm", "mhm", "mmm", "ah", "eh", "oh", "uh-huh", "mm-hmm"]);
const CONTINUERS = new Set(["and", "so", "but", "or", "because", "then", "like", "if", "the", "a", "to", "of", "with", "my", "your"]);

const words = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}\s'-]/gu, " ").split(/\s+/).filter(Boolean);

export interface Endpoint {
  /** Confidence that the person finished, 0..1. */
  eot: number;
  /** How much silence (in all, from the end of the voice) before taking the turn. */
  wait_ms: number;
  reason: "complete" | "unfinished" | "filler" | "silence" | "speaking";
}

/** The endpoint decision for the words heard so far, once the voice went quiet. */
export function endpointFor(text: string, speaking: boolean): Endpoint {
  if (speaking) return { eot: 0, wait_ms: 0, reason: "speaking" };
  const w = words(text);
  const last = w.at(-1) ?? "";
  if (w.length === 0) return { eot: 0.3, wait_ms: 700, reason: "silence" };
  if (FILLERS.has(last)) return { eot: 0.2, wait_ms: 1400, reason: "filler" };
  if (CONTINUERS.has(last)) return { eot: 0.25, wait_ms: 1200, reason: "unfinished" };
  if (/[.!?。！？]\s*$/.test(text.trim())) return { eot: 0.9, wait_ms: 300, reason: "complete" };
  return { eot: 0.7, wait_ms: 350, reason: "complete" };
}

/** A final worth a turn: not empty, not only fillers (a cough transcribes as nothing or a murmur). */
export function isRealUtterance(text: string): boolean {
  const w = words(text);
  return w.some((x) => !FILLERS.has(x));
}

/** skip_turn: words kept ~6 s when plainly unfinished, 30 s after an explicit ask for time. */
export function skipHoldMs(text: string): number {
  const w = words(text);
  const last = w.at(-1) ?? "";
  const unfinished = w.length === 0 || FILLERS.has(last) || CONTINUERS.has(last) || /[,;:]\s*$/.test(text.trim());
  return unfinished ? 6_000 : 30_000;
}
