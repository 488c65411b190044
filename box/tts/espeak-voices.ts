// Implements: "Voice catalogue" rows for the embedded espeak-ng engine.
// espeak's language voices are all male; each also gets a female row through espeak's own
// voice variant ("+f3"), so the spec's same-gender rule has something to choose from.
import type { EspeakRawVoice } from "./espeak-backend.ts";
import type { VoiceRow } from "./engine.ts";

export const ESPEAK_PROVIDER = "espeak";

export interface EspeakVoiceRow extends VoiceRow {
  provider: typeof ESPEAK_PROVIDER;
  /** What espeak_SetVoiceByName takes, e.g. "gmw/en-US+f3". */
  identifier: string;
  languages: string[];
}

const GENDERS = ["neutral", "male", "female"];

function baseId(identifier: string): string {
  return (identifier.split("/").pop() ?? identifier).toLowerCase();
}

export function espeakVoiceRows(raw: readonly EspeakRawVoice[], femaleVariant: string | null): EspeakVoiceRow[] {
  const rows: EspeakVoiceRow[] = [];
  const seen = new Set<string>();
  for (const v of raw) {
    const id = baseId(v.identifier);
    if (seen.has(id)) continue;
    seen.add(id);
    const languages = [...v.languages].sort((a, b) => a.priority - b.priority).map((l) => l.name.toLowerCase());
    // espeak lists the voice's own tag first; keep that as the row's language.
    const language = v.languages[0]?.name.toLowerCase() ?? id;
    const gender = GENDERS[v.gender] ?? "neutral";
    rows.push({
      provider: ESPEAK_PROVIDER,
      id,
      name: v.name,
      language,
      gender,
      description: `eSpeak NG ${v.name}, ${gender} voice (offline formant synthesis)`,
      identifier: v.identifier,
      languages,
    });
    if (femaleVariant && gender !== "female") {
      rows.push({
        provider: ESPEAK_PROVIDER,
        id: `${id}+${femaleVariant}`,
        name: `${v.name}, female`,
        language,
        gender: "female",
        description: `eSpeak NG ${v.name}, female voice (offline formant synthesis)`,
        identifier: `${v.identifier}+${femaleVariant}`,
        languages,
      });
    }
  }
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
