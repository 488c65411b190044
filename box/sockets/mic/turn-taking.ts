// Implements: end-of-turn from VAD silence plus the words (the `endpoint` frames), what counts
// as a real turn (coughs and lone murmurs do not), and the skip_turn hold lengths.
// The rules (docs/api-notes.md "End of turn"): all waits are whole silences from the end of the voice (its
// acoustic end: the VAD's end moved back to where the energy fell, voice-energy.ts), in audio time
// (samples received), so the same audio always ends a turn at the same place.

const FILLERS = new Set(["um", "umm", "uh", "uhh", "er", "erm", "hmm", "hm", "mm", "mhm", "mmm", "ah", "eh", "oh", "uh-huh", "mm-hmm"]);
/** A trailing "so" holds like a filler ("…, so"): the person is gathering the next thought. */
const FILLER_HOLD = new Set([...FILLERS, "so"]);
const CONTINUERS = new Set(["and", "so", "but", "or", "because", "then", "like", "if", "the", "a", "to", "of", "with", "my", "your"]);
/** First words of a question when the recogniser gives no "?". */
const QUESTION_OPENERS = new Set([
  "what",
  "when",
  "where",
  "who",
  "whom",
  "whose",
  "which",
  "why",
  "how",
  "is",
  "are",
  "was",
  "were",
  "do",
  "does",
  "did",
  "can",
  "could",
  "will",
  "would",
  "should",
  "shall",
  "may",
  "might",
  "have",
  "has",
  "had",
  "am",
  "isn't",
  "aren't",
  "don't",
  "doesn't",
  "didn't",
  "can't",
  "won't",
]);

/** The end-of-turn waits (ms of silence from the end of the voice). */
export const EOT = {
  /** After terminal punctuation (. ! ? and CJK stops). */
  terminal: 200,
  /** After a question shape without punctuation ("can we book a table"). */
  question: 220,
  /** After any other complete-looking phrase (the human turn gap is about 200-250 ms). */
  complete: 220,
  /** Added while the trailing silence still carries breath-level voice probability. */
  breath: 100,
  /** After a trailing comma, semicolon or colon. */
  comma: 900,
  /** After a conjunction or other word that cannot end a sentence ("and", "the"). */
  conjunction: 1200,
  /** After a filler ("um", "uh", "so"). */
  filler: 1400,
  /** Silence after the VAD heard voice but the recogniser gave no words yet. */
  noWords: 700,
  /** A partial that changed less than this long ago (audio time) holds the turn until it settles. */
  partialSettle: 150,
  /** Words unchanged this long (audio time) are trusted enough to start a speculative reply on. */
  speculationSettle: 100,
} as const;

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);

export interface Endpoint {
  /** Confidence that the person finished, 0..1. */
  eot: number;
  /** How much silence (in all, from the end of the voice) before taking the turn. */
  wait_ms: number;
  reason: "complete" | "unfinished" | "filler" | "silence" | "speaking";
}

export interface EndpointCues {
  /** The trailing silence still carries breath-level voice probability (rising or hovering). */
  breathy?: boolean;
}

/** The endpoint decision for the words heard so far, once the voice went quiet. */
export function endpointFor(text: string, speaking: boolean, cues: EndpointCues = {}): Endpoint {
  if (speaking) return { eot: 0, wait_ms: 0, reason: "speaking" };
  const ep = decide(text);
  return cues.breathy ? { eot: Math.max(0, +(ep.eot - 0.1).toFixed(2)), wait_ms: ep.wait_ms + EOT.breath, reason: ep.reason } : ep;
}

function decide(text: string): Endpoint {
  const w = words(text);
  const last = w.at(-1) ?? "";
  const trimmed = text.trim();
  if (w.length === 0) return { eot: 0.3, wait_ms: EOT.noWords, reason: "silence" };
  if (FILLER_HOLD.has(last)) return { eot: 0.2, wait_ms: EOT.filler, reason: "filler" };
  if (CONTINUERS.has(last)) return { eot: 0.25, wait_ms: EOT.conjunction, reason: "unfinished" };
  if (/[,;:，、]\s*$/.test(trimmed)) return { eot: 0.35, wait_ms: EOT.comma, reason: "unfinished" };
  if (/[.!?。！？]\s*$/.test(trimmed)) return { eot: 0.9, wait_ms: EOT.terminal, reason: "complete" };
  if (QUESTION_OPENERS.has(w[0]) && w.length >= 2) return { eot: 0.85, wait_ms: EOT.question, reason: "complete" };
  return { eot: 0.75, wait_ms: EOT.complete, reason: "complete" };
}

/**
 * Breath-level voice in the trailing silence: the last three VAD windows hover (average at or
 * above 0.15, the latest still at or above 0.1 and at least 3/4 of the first), or rise window on
 * window to at least 0.1 (the voice may be coming back). Silero's steady decay in the first
 * windows after the voice (0.33 → 0.28 → 0.20 → 0.14 ...) is not breath.
 */
export function breathyTail(probabilities: readonly number[]): boolean {
  const t = probabilities.slice(-3);
  if (t.length < 3) return false;
  const mean = (t[0] + t[1] + t[2]) / 3;
  const hovering = mean >= 0.15 && t[2] >= 0.1 && t[2] >= 0.75 * t[0];
  return hovering || (t[0] < t[1] && t[1] < t[2] && t[2] >= 0.1);
}

/**
 * Audio time (ms) at which the turn is taken: the endpoint's wait from the end of the voice, and
 * never before the recogniser's latest partial has been stable for EOT.partialSettle.
 */
export function turnDeadlineMs(voiceEndMs: number, waitMs: number, partialChangedMs: number): number {
  return Math.max(voiceEndMs + waitMs, partialChangedMs + EOT.partialSettle);
}

/**
 * A speculative reply may start on these words (issue 23 item 3): the voice has gone quiet (its
 * first quiet VAD window, before the VAD's minimum silence ends the stretch), the words look
 * complete (terminal punctuation, a question shape or another complete phrase: never after "and",
 * a comma or a filler), and they have not changed for EOT.speculationSettle ms of audio, so a
 * recogniser still revising its partial costs no model request.
 */
export function speculationReady(text: string, voiceQuiet: boolean, unchangedMs: number): boolean {
  return voiceQuiet && unchangedMs >= EOT.speculationSettle && isRealUtterance(text) && decide(text).reason === "complete";
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
