// Implements: a face's default voice on any engine (docs/api-notes.md "A voice that fits the face"). A face
// says what fits it (gender, language, and the embedded engine's row by id); on another engine
// the first voice of its catalogue with that gender and language is taken; none: the engine's own
// default (a voice of the wrong language would be worse than the wrong gender).
import type { VoiceRow } from "./engine.ts";
import { ESPEAK_PROVIDER } from "./espeak-voices.ts";

/** What voice fits a face. */
export interface FaceVoice {
  /** Lowercase, as catalogue rows say it: "female", "male". */
  gender: string;
  /** Language tag the voice should speak, e.g. "en". */
  language: string;
  /** The embedded engine's row id that fits (chosen by hand: accent and variant). */
  espeak: string;
}

/** Language names hosted catalogues use instead of tags. */
const LANGUAGE_NAMES: Record<string, string> = {
  en: "english",
  es: "spanish",
  fr: "french",
  de: "german",
  it: "italian",
  pt: "portuguese",
  hi: "hindi",
  ja: "japanese",
};

function speaks(row: VoiceRow, language: string): boolean {
  return [row.language, ...(row.languages ?? [])].some((tag) => {
    const l = (tag ?? "").toLowerCase();
    return l === language || l.startsWith(`${language}-`) || l.startsWith(`${language}_`) || l === LANGUAGE_NAMES[language];
  });
}

/** The voice of `rows` (one engine's catalogue) that fits `face`; undefined: none does. */
export function faceVoiceOf(face: FaceVoice, provider: string, rows: readonly VoiceRow[]): string | undefined {
  if (provider === ESPEAK_PROVIDER && rows.some((r) => r.id === face.espeak)) return face.espeak;
  return rows.find((r) => (r.gender ?? "").toLowerCase() === face.gender && speaks(r, face.language))?.id;
}
