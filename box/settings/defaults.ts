// Implements: Settings record (service-spec.md): the record a credential reads before its first write.
import type { CatalogueRow } from "../../shared/wire/catalogue.ts";
import { VOICE_SLOT_FIELDS, type SettingsRecord, type VoiceSlots } from "../../shared/wire/settings.ts";

export interface DefaultSettingsOptions {
  /** Voice engine spoken with until the caller picks one; the embedded engine by default. */
  ttsProvider?: string;
  /** Default avatar id; empty means none chosen yet. */
  avatar?: string;
  systemPrompt?: string;
  maxTokens?: number;
}

/** A short persona that suits a spoken avatar; replaced by the caller's own `system_prompt`. */
export const DEFAULT_SYSTEM_PROMPT =
  "You are a friendly assistant speaking through a talking avatar. Answer in short, natural spoken sentences.";

const pick = (catalogue: readonly CatalogueRow[], tier: "quality" | "fast") =>
  catalogue.find((r) => r.selectable && r.tiers.includes(tier)) ?? catalogue.find((r) => r.selectable);

/**
 * A full record. `model` is the first selectable quality row (else the first selectable row),
 * `live_model` the first selectable fast row (else the first selectable row); both "" when no
 * model can be chosen. The catalogue is ordered most resident first, so the defaults are the
 * most resident choices. Sampling is left to the model (null), effort `medium`, reasoning
 * automatic (null), every voice slot empty, and `system_tools` absent (all four on).
 */
export function defaultSettings(catalogue: readonly CatalogueRow[], opts: DefaultSettingsOptions = {}): SettingsRecord {
  const model = pick(catalogue, "quality");
  const live = pick(catalogue, "fast");
  const slots = Object.fromEntries(VOICE_SLOT_FIELDS.map((f) => [f, null])) as VoiceSlots;
  return {
    provider: model?.provider ?? "",
    model: model?.id ?? "",
    live_model: live?.id ?? "",
    system_prompt: opts.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    max_tokens: opts.maxTokens ?? 1024,
    top_p: null,
    temperature: null,
    effort: "medium",
    reasoning: null,
    tts_provider: opts.ttsProvider ?? "espeak",
    ...slots,
    avatar: opts.avatar ?? "",
    emotion_responsive: true,
    tool_phrases: {},
    tools: [],
  };
}
