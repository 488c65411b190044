// The delivery tone of an uploaded clip inferred from its words (POST /offer: "Tone is inferred
// from the audio when no explicit tone is given and emotion_responsive is on"). A small lexicon
// scorer, no model: recognisers give plain lower-case words, and a wrong guess costs a face.
import type { Tone } from "../../shared/wire/tones.ts";

/** Words and short phrases that lean towards each tone (lower case, apostrophes kept). */
export const TONE_LEXICON: Record<Exclude<Tone, "neutral">, readonly string[]> = {
  happy: [
    "happy",
    "glad",
    "joy",
    "joyful",
    "delighted",
    "delightful",
    "love",
    "loved",
    "lovely",
    "wonderful",
    "great",
    "fantastic",
    "awesome",
    "excellent",
    "excited",
    "exciting",
    "fun",
    "smile",
    "smiling",
    "laugh",
    "laughing",
    "cheerful",
    "pleased",
    "thrilled",
    "celebrate",
    "celebrating",
    "congratulations",
    "yay",
    "hooray",
    "thank you",
    "thanks",
    "beautiful",
    "enjoy",
    "enjoyed",
    "nice",
    "brilliant",
    "perfect",
    "lucky",
    "welcome",
    "hello",
    "good news",
  ],
  sad: [
    "sad",
    "sadly",
    "sorry",
    "unhappy",
    "miss",
    "missed",
    "missing",
    "lonely",
    "alone",
    "cry",
    "crying",
    "cried",
    "tears",
    "grief",
    "grieve",
    "grieving",
    "loss",
    "lost",
    "died",
    "death",
    "dead",
    "funeral",
    "heartbroken",
    "depressed",
    "hopeless",
    "regret",
    "unfortunately",
    "disappointed",
    "disappointing",
    "hurt",
    "pain",
    "painful",
    "gloomy",
    "miserable",
    "goodbye",
    "farewell",
    "bad news",
    "passed away",
  ],
  surprised: [
    "wow",
    "whoa",
    "oh my",
    "unbelievable",
    "incredible",
    "amazing",
    "astonishing",
    "astonished",
    "shocked",
    "shocking",
    "surprise",
    "surprised",
    "surprising",
    "unexpected",
    "unexpectedly",
    "suddenly",
    "can't believe",
    "cannot believe",
    "no way",
    "oh my god",
    "gosh",
    "guess what",
  ],
  thoughtful: [
    "think",
    "thinking",
    "thought",
    "wonder",
    "wondering",
    "perhaps",
    "maybe",
    "consider",
    "considering",
    "reflect",
    "reflecting",
    "ponder",
    "hmm",
    "imagine",
    "possibly",
    "curious",
    "suppose",
    "interesting",
    "perspective",
    "remember",
    "it seems",
    "on the other hand",
    "i guess",
    "what if",
    "why",
  ],
  serious: [
    "important",
    "serious",
    "seriously",
    "must",
    "warning",
    "warn",
    "careful",
    "caution",
    "danger",
    "dangerous",
    "urgent",
    "urgently",
    "critical",
    "risk",
    "risks",
    "attention",
    "immediately",
    "security",
    "safety",
    "strictly",
    "required",
    "mandatory",
    "law",
    "legal",
    "responsibility",
    "emergency",
    "deadline",
    "please note",
    "do not",
  ],
};

/** A lexicon hit this close after one of these is not counted ("not happy", "never sad"). */
const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "don't",
  "dont",
  "isn't",
  "isnt",
  "wasn't",
  "aren't",
  "can't",
  "cannot",
  "won't",
  "didn't",
  "doesn't",
  "nothing",
  "hardly",
]);
const NEGATION_REACH = 3;
/** A lead needs at least one hit per this many words (so one "great" in a long speech is not enough). */
const WORDS_PER_HIT = 50;

export interface ToneScore {
  tone: Tone;
  scores: Record<Exclude<Tone, "neutral">, number>;
}

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^a-z0-9']+/)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter(Boolean);

/**
 * Counts lexicon hits per tone (a phrase counts once per occurrence, a hit within three words of
 * a negator does not count). The tone with the most hits wins when it leads the runner-up by at
 * least max(1, words / 50); no hit, a tie or a thin lead → `neutral` ("unsure").
 */
export function scoreTone(text: string): ToneScore {
  const w = words(text);
  const scores = { happy: 0, sad: 0, surprised: 0, thoughtful: 0, serious: 0 };
  // "do not" is itself a serious phrase: its "not" negates what follows, not itself.
  for (const tone of Object.keys(scores) as (keyof typeof scores)[]) {
    for (const entry of TONE_LEXICON[tone]) {
      const phrase = words(entry);
      for (let i = 0; i + phrase.length <= w.length; i++) {
        if (!phrase.every((p, j) => w[i + j] === p)) continue;
        const negated = w.slice(Math.max(0, i - NEGATION_REACH), i).some((x) => NEGATORS.has(x));
        if (!negated || NEGATORS.has(phrase[0])) scores[tone]++;
      }
    }
  }
  const ranked = (Object.entries(scores) as [keyof typeof scores, number][]).sort((a, b) => b[1] - a[1]);
  const [[best, top], [, second]] = ranked;
  const lead = Math.max(1, Math.floor(w.length / WORDS_PER_HIT));
  return { tone: top > 0 && top - second >= lead ? best : "neutral", scores };
}

export function toneFromWords(text: string): Tone {
  return scoreTone(text).tone;
}
