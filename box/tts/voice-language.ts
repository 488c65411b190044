// Implements: "Language of a call" and the `change_language` frame's voice rule (service-spec):
// keep the current voice when it speaks the language, else a voice from the whole catalogue
// that does (same gender as the current voice preferred, then the lowest id), else none.
import type { VoiceRow } from "./engine.ts";
import { FIRST_HOSTED_VOICE_PROVIDER } from "../../shared/wire/settings.ts";

/** Primary subtag, lowercase: "en-US" → "en", "pt_BR" → "pt". */
export function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
}

/** Whether the row speaks `lang` (a primary subtag such as "es"). */
export function speaksLanguage(row: VoiceRow, lang: string): boolean {
  const want = primaryLanguage(lang);
  const tags = row.languages && row.languages.length > 0 ? row.languages : [row.language];
  return tags.some((t) => primaryLanguage(t) === want);
}

/**
 * The voice `change_language` switches to, for the engine speaking: the first hosted provider
 * (ElevenLabs) keeps its voice and changes language (its multilingual model speaks them all);
 * every other engine follows `voiceForLanguage`. Null: refuse.
 */
export function voiceForCall(provider: string, rows: readonly VoiceRow[], lang: string, current?: string | null): VoiceRow | null {
  if (provider === FIRST_HOSTED_VOICE_PROVIDER) return rows.find((r) => r.id === current) ?? rows[0] ?? null;
  return voiceForLanguage(rows, lang, current);
}

/** `current` is the current voice's row id; unknown ids count as no current voice. */
export function voiceForLanguage(rows: readonly VoiceRow[], lang: string, current?: string | null): VoiceRow | null {
  const currentRow = current ? rows.find((r) => r.id === current) : undefined;
  if (currentRow && speaksLanguage(currentRow, lang)) return currentRow;
  const speakers = rows.filter((r) => speaksLanguage(r, lang));
  if (speakers.length === 0) return null;
  const sameGender = currentRow ? speakers.filter((r) => r.gender === currentRow.gender) : [];
  const pool = sameGender.length > 0 ? sameGender : speakers;
  return pool.reduce((best, r) => (r.id < best.id ? r : best));
}
