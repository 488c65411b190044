// Test fixtures for the settings validators: a small catalogue with every capability mix.
import { buildCatalogue } from "../../catalogue/catalogue.ts";
import type { ModelProbe } from "../../../shared/wire/catalogue.ts";
import { defaultSettings } from "../defaults.ts";
import type { SettingsRecord } from "../../../shared/wire/settings.ts";
import type { SettingsContext } from "../validate.ts";

const probe = (p: Partial<ModelProbe>): ModelProbe => ({
  supports_sampling: false,
  supports_effort: false,
  effort_max: false,
  reasoning: "none",
  default_reasoning: "off",
  ...p,
});

export const MODELS = {
  /** Samples, takes effort up to max. */
  sonnet: "au.anthropic.sonnet",
  /** Fast; samples, no effort. */
  haiku: "au.anthropic.haiku",
  /** Effort without max, no sampling. */
  opus: "au.anthropic.opus",
  /** Never probed. */
  llama: "au.meta.llama",
  /** Offshore, not selectable without opt-in. */
  gpt: "us.openai.gpt",
} as const;

export const catalogue = buildCatalogue(
  [
    { id: MODELS.sonnet, label: "Sonnet", provider: "anthropic", tiers: ["quality"] },
    { id: MODELS.haiku, label: "Haiku", provider: "anthropic", tiers: ["fast"] },
    { id: MODELS.opus, label: "Opus", provider: "anthropic", tiers: ["quality"] },
    { id: MODELS.llama, label: "Llama", provider: "meta", tiers: [] },
    { id: MODELS.gpt, label: "GPT", provider: "openai", tiers: ["quality", "fast"] },
  ],
  new Map([
    [
      MODELS.sonnet,
      probe({ supports_sampling: true, supports_effort: true, effort_max: true, reasoning: "adaptive", default_reasoning: "medium" }),
    ],
    [MODELS.haiku, probe({ supports_sampling: true })],
    [MODELS.opus, probe({ supports_effort: true, reasoning: "always", default_reasoning: "low" })],
    [MODELS.gpt, probe({ supports_sampling: true, supports_effort: true })],
  ]),
  { allowOffshore: false, inCountry: true },
);

export const ctx: SettingsContext = { catalogue, ttsProviders: ["espeak", "chatterbox", "elevenlabs", "cartesia"] };

/** Default record: model sonnet, live_model haiku. */
export const base = (): SettingsRecord => defaultSettings(catalogue);

export const tool = (extra: Record<string, unknown> = {}) => ({
  name: "lookup_order",
  description: "Looks up an order by its number.",
  parameters: { type: "object", properties: { order_number: { type: "string" } }, required: ["order_number"] },
  mode: "await_result",
  ...extra,
});
