// Voice objects as `GET /v2/voices` returns them (docs/providers.md 1.5): every field a client must
// NOT copy onto a catalogue row (preview_url, created_at_unix, model ids) is present on purpose.

export type FakeVoice = Record<string, unknown> & { voice_id: string; name: string };

const preview = (id: string) => `https://storage.googleapis.com/eleven-public-prod/premade/voices/${id}/preview.mp3`;
const settings = { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 };

function voice(fields: Partial<FakeVoice> & { voice_id: string; name: string }): FakeVoice {
  return {
    category: "premade",
    labels: {},
    description: null,
    preview_url: preview(fields.voice_id),
    available_for_tiers: [],
    settings,
    high_quality_base_model_ids: ["eleven_multilingual_v2", "eleven_flash_v2_5", "eleven_turbo_v2_5"],
    verified_languages: [],
    samples: null,
    fine_tuning: { is_allowed_to_fine_tune: true, state: {} },
    sharing: null,
    is_owner: false,
    is_legacy: false,
    is_mixed: false,
    created_at_unix: null,
    ...fields,
  };
}

export const GEORGE = "JBFqnCBsd6RMkjVDRZzb";
export const RACHEL = "21m00Tcm4TlvDq8ikWAM";
export const LUCIA = "fakeSpanishVoice0001";
export const CLONED = "myClonedVoice0000001";
export const ADAM = "pNInz6obpgDQGcFmaJgB";

export function fakeVoices(): FakeVoice[] {
  return [
    voice({
      voice_id: GEORGE,
      name: "George",
      labels: { accent: "British", age: "middle-aged", description: "warm", gender: "male", use_case: "narration" },
      verified_languages: [
        { language: "en", model_id: "eleven_multilingual_v2", accent: "british", locale: "en-GB", preview_url: preview(GEORGE) },
        { language: "en", model_id: "eleven_flash_v2_5", accent: "british", locale: "en-GB", preview_url: preview(GEORGE) },
      ],
    }),
    voice({
      voice_id: RACHEL,
      name: "Rachel",
      labels: { accent: "American", age: "middle-aged", description: "expressive", gender: "female", use_case: "social media" },
      description: "A warm, expressive voice.",
      verified_languages: [
        { language: "en", model_id: "eleven_multilingual_v2", accent: "american", locale: "en-US", preview_url: preview(RACHEL) },
      ],
    }),
    voice({
      voice_id: LUCIA,
      name: "Lucía",
      category: "professional",
      labels: { accent: "peninsular", language: "es", gender: "female", age: "young" },
      description: "Clear Castilian narrator.",
      verified_languages: [
        { language: "es", model_id: "eleven_multilingual_v2", accent: "peninsular", locale: "es-ES" },
        { language: "es", model_id: "eleven_flash_v2_5", accent: "mexican", locale: "es-MX" },
        { language: "pt", model_id: "eleven_flash_v2_5", locale: "pt-BR" },
      ],
    }),
    voice({
      voice_id: CLONED,
      name: "My voice",
      category: "cloned",
      labels: {},
      description: "",
      verified_languages: null,
      high_quality_base_model_ids: [],
      is_owner: true,
      created_at_unix: 1_767_225_600,
    }),
    // Legacy premade voice: labels only, the accent must not become a language.
    voice({
      voice_id: ADAM,
      name: "Adam",
      is_legacy: true,
      labels: { accent: "american", age: "middle aged", description: "deep", gender: "male", use_case: "narration" },
      verified_languages: undefined,
    }),
  ];
}

/** `count` plain voices, for paging. */
export function manyFakeVoices(count: number): FakeVoice[] {
  return Array.from({ length: count }, (_, i) =>
    voice({
      voice_id: `pagedVoice${String(i).padStart(4, "0")}`,
      name: `Voice ${i}`,
      labels: { gender: i % 2 ? "female" : "male", accent: "american" },
    }),
  );
}
