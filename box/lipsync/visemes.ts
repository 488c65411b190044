// Implements: docs/architecture.md "Mouth shapes": from the TTS engine's phoneme timings:
// IPA phoneme → viseme class → target mouth shape, with how strongly each class imposes itself
// on its neighbours (a dominance in the sense of Cohen & Massaro's coarticulation model).
import type { MouthParams } from "../render/frame-params.ts";

export const VISEMES = ["sil", "PP", "FF", "TH", "DD", "kk", "CH", "SS", "nn", "RR", "HH", "aa", "E", "I", "O", "U"] as const;
export type Viseme = (typeof VISEMES)[number];

export interface VisemeShape {
  target: MouthParams;
  /** Weight against neighbours: lips that must close (PP) win, /h/ takes its neighbours' shape. */
  dominance: number;
  /** How early (ms, half-life) the shape starts to show before the sound. */
  leadMs: number;
  /** How long (ms, half-life) it lingers after the sound. */
  lagMs: number;
}

const shape = (open: number, wide: number, round: number, dominance: number, leadMs = 45, lagMs = 30): VisemeShape => ({
  target: { open, wide, round },
  dominance,
  leadMs,
  lagMs,
});

export const VISEME_SHAPES: Record<Viseme, VisemeShape> = {
  sil: shape(0, 0, 0, 1.2, 35, 35),
  PP: shape(0, 0.05, 0.05, 5, 25, 15), // p b m: lips pressed together
  FF: shape(0.06, 0.15, 0, 3, 25, 15), // f v: lower lip under the teeth
  TH: shape(0.18, 0.12, 0, 1.5),
  DD: shape(0.22, 0.15, 0, 0.6), // t d: tongue, lips follow the vowels
  kk: shape(0.28, 0.1, 0, 0.5),
  CH: shape(0.18, 0, 0.5, 3), // ʃ ʒ tʃ dʒ: protruded lips
  SS: shape(0.1, 0.35, 0, 1.5),
  nn: shape(0.18, 0.12, 0, 0.5), // n l ŋ
  RR: shape(0.2, 0.05, 0.3, 1.2),
  HH: shape(0.3, 0.15, 0, 0.1), // h: the shape of the vowel around it
  aa: shape(0.85, 0.3, 0, 1),
  E: shape(0.55, 0.45, 0, 1),
  I: shape(0.28, 0.75, 0, 1),
  O: shape(0.6, 0, 0.6, 1),
  U: shape(0.22, 0, 0.9, 1.2),
};

// Ordered: longer symbols first so "tʃ" is not read as "t".
const CONSONANTS: [string, Viseme][] = [
  ["tʃ", "CH"],
  ["dʒ", "CH"],
  ["tɕ", "CH"],
  ["dʑ", "CH"],
  ["ts", "SS"],
  ["dz", "SS"],
  ["p", "PP"],
  ["b", "PP"],
  ["m", "PP"],
  ["ɱ", "FF"],
  ["ɸ", "PP"],
  ["β", "PP"],
  ["f", "FF"],
  ["v", "FF"],
  ["ʋ", "FF"],
  ["θ", "TH"],
  ["ð", "TH"],
  ["t", "DD"],
  ["d", "DD"],
  ["ʈ", "DD"],
  ["ɖ", "DD"],
  ["ɗ", "DD"],
  ["k", "kk"],
  ["ɡ", "kk"],
  ["g", "kk"],
  ["q", "kk"],
  ["ɢ", "kk"],
  ["x", "kk"],
  ["ɣ", "kk"],
  ["ʔ", "kk"],
  ["c", "kk"],
  ["ɟ", "kk"],
  ["ʃ", "CH"],
  ["ʒ", "CH"],
  ["ɕ", "CH"],
  ["ʑ", "CH"],
  ["ʂ", "CH"],
  ["ʐ", "CH"],
  ["s", "SS"],
  ["z", "SS"],
  ["ç", "SS"],
  ["n", "nn"],
  ["ŋ", "nn"],
  ["ɲ", "nn"],
  ["ɳ", "nn"],
  ["ɴ", "nn"],
  ["l", "nn"],
  ["ɫ", "nn"],
  ["ʎ", "nn"],
  ["ɭ", "nn"],
  ["ʟ", "nn"],
  ["r", "RR"],
  ["ɹ", "RR"],
  ["ɾ", "RR"],
  ["ʁ", "RR"],
  ["ʀ", "RR"],
  ["ɽ", "RR"],
  ["ɻ", "RR"],
  ["h", "HH"],
  ["ɦ", "HH"],
  ["χ", "kk"],
  ["ħ", "HH"],
  ["ʕ", "HH"],
  ["w", "U"],
  ["ʍ", "U"],
  ["ɥ", "U"],
  ["j", "I"],
  ["ɰ", "E"],
];

const VOWELS: Record<string, Viseme> = {
  a: "aa",
  ɑ: "aa",
  ä: "aa",
  æ: "aa",
  ɐ: "aa",
  ʌ: "aa",
  ɒ: "O",
  e: "E",
  ɛ: "E",
  ə: "E",
  ɜ: "E",
  ɘ: "E",
  ɚ: "E",
  ɝ: "E",
  œ: "O",
  ɞ: "O",
  i: "I",
  ɪ: "I",
  ɨ: "I",
  y: "U",
  ʏ: "U",
  ɯ: "U",
  ɤ: "E",
  o: "O",
  ɔ: "O",
  ø: "O",
  ɵ: "O",
  u: "U",
  ʊ: "U",
  ʉ: "U",
};

/** Diacritics and length marks do not change the viseme class. */
function strip(ipa: string): string {
  return ipa.normalize("NFD").replace(/[\u0300-\u036f\u02b0-\u02ff\u1d2c-\u1dbf]/g, "");
}

/**
 * Viseme classes of one phoneme: one for most, two for diphthongs and affricate-vowel runs
 * ("aɪ" → aa then I), so the mouth glides through both.
 */
export function visemesOf(phoneme: string): Viseme[] {
  const raw = phoneme.normalize("NFC").trim();
  if (!raw) return ["sil"];
  const out: Viseme[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const consonant = CONSONANTS.find(([sym]) => rest.startsWith(sym));
    if (consonant) {
      out.push(consonant[1]);
      rest = rest.slice(consonant[0].length);
      continue;
    }
    const ch = Array.from(rest)[0];
    const base = strip(ch);
    const vowel = base ? VOWELS[base] : undefined;
    if (vowel) out.push(vowel);
    rest = rest.slice(ch.length);
  }
  // Keep the first and last distinct classes: enough to shape a glide.
  const distinct = out.filter((v, i) => i === 0 || v !== out[i - 1]);
  if (distinct.length === 0) return ["E"]; // an unknown sound: a neutral, half-open mouth
  return distinct.length === 1 ? distinct : [distinct[0], distinct[distinct.length - 1]];
}

/** The main viseme class of a phoneme (the first part of a diphthong). */
export function visemeOf(phoneme: string): Viseme {
  return visemesOf(phoneme)[0];
}

export function visemeTarget(viseme: Viseme): MouthParams {
  return { ...VISEME_SHAPES[viseme].target };
}
