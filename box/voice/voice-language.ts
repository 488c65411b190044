// Implements: "Language of a call" and the `change_language` frame's voice rule (service-spec):
// keep the current voice when it speaks the language, else a voice from the whole catalogue
// that does (same gender as the current voice preferred, then the lowest id), else none.
import type { VoiceRow } from "./engine.ts";

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
