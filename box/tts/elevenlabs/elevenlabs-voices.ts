// Implements: "Voice catalogue" rows for ElevenLabs (service-spec: `language` is a tag, not a
// country; no sample URL, timestamp or provider model id on a row) from `GET /v2/voices`
// (docs/providers.md 1.5), and which languages each model speaks (docs/providers.md 1.8).
import type { VoiceRow } from "../engine.ts";
import { VOICE_ID } from "./elevenlabs-errors.ts";
import { primaryLanguage } from "../voice-language.ts";

export const ELEVENLABS_PROVIDER = "elevenlabs";

const MULTILINGUAL_V2 = [
  "en",
  "ja",
  "zh",
  "de",
  "hi",
  "fr",
  "ko",
  "pt",
  "it",
  "es",
  "id",
  "nl",
  "tr",
  "fil",
  "pl",
  "sv",
  "bg",
  "ro",
  "ar",
  "cs",
  "el",
  "fi",
  "hr",
  "ms",
  "sk",
  "da",
  "ta",
  "uk",
  "ru",
];
const V2_5 = [...MULTILINGUAL_V2, "hu", "no", "vi"];

/** A voice speaks every language its model speaks; `verified_languages` only marks checked ones. */
export const MODEL_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  eleven_multilingual_v2: MULTILINGUAL_V2,
  eleven_flash_v2_5: V2_5,
  eleven_turbo_v2_5: V2_5,
  // v3 speaks 70+; the v2.5 list is the part we are sure of.
  eleven_v3: V2_5,
  eleven_multilingual_v1: ["en", "de", "pl", "es", "it", "fr", "pt", "hi"],
  eleven_flash_v2: ["en"],
  eleven_turbo_v2: ["en"],
  eleven_monolingual_v1: ["en"],
};

/** Models that take `language_code`; others may refuse it (docs/providers.md 1.2). */
export const LANGUAGE_CODE_MODELS: ReadonlySet<string> = new Set(["eleven_flash_v2_5", "eleven_turbo_v2_5"]);

export interface ElevenLabsVoiceRow extends VoiceRow {
  provider: typeof ELEVENLABS_PROVIDER;
  languages: string[];
  /** premade, cloned, generated or professional. */
  category: string;
  /** The provider's accent label, lowercase ("american"); never the row's language. */
  accent?: string;
  age?: string;
}

// Accent labels of English voices that carry no verified language.
const ACCENT_TAGS: Record<string, string> = {
  american: "en-us",
  british: "en-gb",
  english: "en-gb",
  australian: "en-au",
  irish: "en-ie",
  canadian: "en-ca",
  "new zealand": "en-nz",
  scottish: "en-gb",
  "south african": "en-za",
};

const TAG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;

interface RawVoice {
  voice_id?: unknown;
  name?: unknown;
  category?: unknown;
  description?: unknown;
  labels?: Record<string, unknown> | null;
  verified_languages?: { language?: unknown; model_id?: unknown; locale?: unknown }[] | null;
}

/** One `Voice` object as a catalogue row; null when it has no usable voice_id. */
export function elevenLabsVoiceRow(raw: unknown, modelId: string): ElevenLabsVoiceRow | null {
  const v = (raw ?? {}) as RawVoice;
  if (typeof v.voice_id !== "string" || !VOICE_ID.test(v.voice_id)) return null;
  const labels = v.labels && typeof v.labels === "object" ? v.labels : {};
  const label = (key: string) => (typeof labels[key] === "string" ? (labels[key] as string).trim().toLowerCase() : "");
  const verified = verifiedTags(v.verified_languages, modelId);
  const accent = label("accent");
  const language = verified[0] ?? tag(label("language")) ?? ACCENT_TAGS[accent] ?? "en";
  const languages = byPrimary([language, ...verified, ...(MODEL_LANGUAGES[modelId] ?? [])]);
  const row: ElevenLabsVoiceRow = {
    provider: ELEVENLABS_PROVIDER,
    id: v.voice_id,
    name: typeof v.name === "string" && v.name.trim() ? v.name.trim() : v.voice_id,
    language,
    gender: label("gender"),
    description: describe(v, label),
    languages,
    category: typeof v.category === "string" ? v.category : "",
  };
  if (accent) row.accent = accent;
  if (label("age")) row.age = label("age");
  return row;
}

/** Verified languages as tags, those checked on `modelId` first ("en-US" locale → "en-us"). */
function verifiedTags(list: RawVoice["verified_languages"], modelId: string): string[] {
  if (!Array.isArray(list)) return [];
  const entries = list.filter((e) => e && typeof e === "object");
  const ordered = [...entries.filter((e) => e.model_id === modelId), ...entries.filter((e) => e.model_id !== modelId)];
  const tags: string[] = [];
  for (const e of ordered) {
    const t = tag(typeof e.locale === "string" ? e.locale : "") ?? tag(typeof e.language === "string" ? e.language : "");
    if (t && !tags.includes(t)) tags.push(t);
  }
  return tags;
}

function tag(text: string): string | undefined {
  const t = text.trim().toLowerCase().replace(/_/g, "-");
  return TAG.test(t) ? t : undefined;
}

/** The first tag of each primary language, in order: "es-mx" wins over a later "es". */
function byPrimary(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((t) => {
    const p = primaryLanguage(t);
    if (seen.has(p)) return false;
    seen.add(p);
    return true;
  });
}

function describe(v: RawVoice, label: (key: string) => string): string {
  if (typeof v.description === "string" && v.description.trim()) return v.description.trim();
  const parts = [label("accent"), label("age"), label("description")].filter(Boolean);
  const useCase = label("use_case");
  const text = parts.join(", ") + (useCase ? `${parts.length ? " " : ""}voice for ${useCase}` : "");
  return text ? text[0].toUpperCase() + text.slice(1) : "ElevenLabs voice";
}

export interface VoicesPage {
  voices: unknown[];
  nextPageToken: string | null;
}

/** `{voices, has_more, next_page_token}`; null when the body is not that. */
export function readVoicesPage(json: unknown): VoicesPage | null {
  const page = json as { voices?: unknown; has_more?: unknown; next_page_token?: unknown } | null;
  if (!page || typeof page !== "object" || !Array.isArray(page.voices)) return null;
  const token = page.has_more === true && typeof page.next_page_token === "string" && page.next_page_token ? page.next_page_token : null;
  return { voices: page.voices, nextPageToken: token };
}
