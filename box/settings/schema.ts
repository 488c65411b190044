// Implements: Settings record, Settings read envelope, Custom tool definition, System tools,
// Box: settings (write answer), service-spec.md. TypeBox models plus the vocabularies and limits
// the validator enforces.
import { Type, type Static, type TNull, type TString, type TUnion } from "@sinclair/typebox";
import { CatalogueRow, REASONING_LEVELS, ReasoningLevel } from "../catalogue/schema.ts";
import { LANGUAGES } from "../../shared/wire/tones.ts";

export { REASONING_LEVELS, ReasoningLevel, LANGUAGES };

export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;
export const EffortLevel = Type.Union(EFFORT_LEVELS.map((l) => Type.Literal(l)));
export type EffortLevel = (typeof EFFORT_LEVELS)[number];

/** Voice sessions only; `system_tools` omitted means all four on. */
export const SYSTEM_TOOLS = ["end_call", "skip_turn", "pause_conversation", "change_language"] as const;
export const SystemToolName = Type.Union(SYSTEM_TOOLS.map((n) => Type.Literal(n)));
export type SystemToolName = (typeof SYSTEM_TOOLS)[number];

/** Run on the server where the deployment switches them on. */
export const BUILT_IN_TOOLS = ["calculate", "current_time", "weather", "lookup_wikipedia", "fetch_url"] as const;

/** Names a custom tool may not take. */
export const RESERVED_TOOL_NAMES: readonly string[] = [...SYSTEM_TOOLS, ...BUILT_IN_TOOLS, "speak"];

/** Added by the platform to every custom tool: the line said while the tool runs. */
export const RESPONSE_TO_USER = "response_to_user";

/**
 * Voice providers with a `voice_id` slot in the record. The first hosted provider keeps the bare
 * `voice_id` name (compatibility); every other provider gets `voice_id_<provider>`. `chatterbox`
 * is the self-hosted engine, `espeak` the embedded one. Append here to add a provider.
 */
export const VOICE_PROVIDERS = ["elevenlabs", "cartesia", "chatterbox", "espeak"] as const;
export type VoiceProvider = (typeof VOICE_PROVIDERS)[number];
export const FIRST_HOSTED_VOICE_PROVIDER = "elevenlabs" as const;

export type VoiceSlotField<P extends string> = P extends typeof FIRST_HOSTED_VOICE_PROVIDER ? "voice_id" : `voice_id_${P}`;

export function voiceSlotField<P extends string>(provider: P): VoiceSlotField<P> {
  return (provider === FIRST_HOSTED_VOICE_PROVIDER ? "voice_id" : `voice_id_${provider}`) as VoiceSlotField<P>;
}

export type VoiceSlotName = VoiceSlotField<VoiceProvider>;
export const VOICE_SLOT_FIELDS: readonly VoiceSlotName[] = VOICE_PROVIDERS.map((p) => voiceSlotField(p));
/** The record's voice slots: one `string | null` per provider. */
export type VoiceSlots = { [F in VoiceSlotName]: string | null };

/** Limits this deployment chose where the spec names none (documented in docs/api-notes.md). */
export const SETTINGS_LIMITS = {
  maxDepth: 32,
  maxTokensMin: 1,
  maxTokensMax: 200_000,
  temperatureMax: 2,
  topPMax: 1,
  systemPromptChars: 100_000,
  modelIdChars: 200,
  providerChars: 64,
  avatarChars: 256,
  voiceIdChars: 256,
  toolsMax: 10,
  toolNameMin: 2,
  toolNameMax: 64,
  toolDescriptionChars: 400,
  toolParametersLevels: 3,
  toolParametersProperties: 16,
  toolParametersBytes: 4096,
  parameterDescriptionChars: 400,
  parameterNameChars: 64,
  enumValuesMax: 64,
  timeoutMin: 1,
  timeoutMax: 10,
  timeoutDefault: 8,
  phraseChars: 160,
  phraseToolsMax: 32,
} as const;

export const PARAMETER_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;

/** One node of a custom tool's `parameters` (only the six keywords the spec allows). */
export const ParameterSchema = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        type: Type.Union(PARAMETER_TYPES.map((t) => Type.Literal(t))),
        description: Type.Optional(Type.String()),
        properties: Type.Optional(Type.Record(Type.String(), Self)),
        required: Type.Optional(Type.Array(Type.String())),
        enum: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]))),
        items: Type.Optional(Self),
      },
      { additionalProperties: false },
    ),
  { $id: "ToolParameterSchema" },
);
export type ParameterSchema = Static<typeof ParameterSchema>;

export const TOOL_MODES = ["await_result", "fire_and_forget"] as const;
export type ToolMode = (typeof TOOL_MODES)[number];

/** A stored custom tool: defaults filled in, so every field is present. */
export const CustomTool = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 64, pattern: "^[a-z][a-z0-9_]*$" }),
    description: Type.String({ minLength: 1, maxLength: 400 }),
    parameters: ParameterSchema,
    mode: Type.Union(TOOL_MODES.map((m) => Type.Literal(m))),
    timeout_seconds: Type.Integer({ minimum: 1, maximum: 10 }),
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type CustomTool = Static<typeof CustomTool>;

/** `{tool_name: {language: line}}`. */
export const ToolPhrases = Type.Record(Type.String(), Type.Record(Type.String(), Type.String()));
export type ToolPhrases = Static<typeof ToolPhrases>;

const nullableString = () => Type.Union([Type.String(), Type.Null()]);
type VoiceSlotSchemas = { [F in VoiceSlotName]: TUnion<[TString, TNull]> };
const voiceSlots = Object.fromEntries(VOICE_SLOT_FIELDS.map((f) => [f, nullableString()])) as VoiceSlotSchemas;

export const SettingsRecord = Type.Object(
  {
    provider: Type.String(),
    model: Type.String(),
    live_model: Type.String(),
    system_prompt: Type.String(),
    max_tokens: Type.Integer({ minimum: 1 }),
    top_p: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
    temperature: Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()]),
    effort: EffortLevel,
    reasoning: Type.Union([ReasoningLevel, Type.Null()]),
    tts_provider: Type.String(),
    ...voiceSlots,
    avatar: Type.String(),
    emotion_responsive: Type.Boolean(),
    tool_phrases: ToolPhrases,
    tools: Type.Array(CustomTool, { maxItems: 10 }),
    system_tools: Type.Optional(Type.Array(SystemToolName, { uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type SettingsRecord = Static<typeof SettingsRecord>;

/** Every field a `POST /api/settings` body may carry. */
export const SETTABLE_FIELDS: readonly string[] = Object.keys(SettingsRecord.properties);

/** One voice engine in the read envelope, with its capability flags (more fields allowed). */
export const TtsProviderInfo = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    /** Runs on the box (no audio leaves it). */
    local: Type.Boolean(),
    /** Speaks with the caller's own provider key. */
    byo: Type.Boolean(),
    /** Can clone a voice from a reference clip. */
    clone: Type.Boolean(),
  },
  { additionalProperties: true },
);
export type TtsProviderInfo = Static<typeof TtsProviderInfo>;

export const SettingsEnvelope = Type.Object({
  settings: SettingsRecord,
  models: Type.Array(CatalogueRow),
  effort_levels: Type.Array(EffortLevel),
  reasoning_levels: Type.Array(ReasoningLevel),
  tts_providers: Type.Array(TtsProviderInfo),
  /** False means a save will not survive the box. */
  persisted: Type.Boolean(),
});
export type SettingsEnvelope = Static<typeof SettingsEnvelope>;

/** 200 answer to `POST /api/settings`. */
export const SettingsWriteAnswer = Type.Object({
  ok: Type.Literal(true),
  saved: Type.Boolean(),
  settings: SettingsRecord,
});
export type SettingsWriteAnswer = Static<typeof SettingsWriteAnswer>;

/** 400 answer to `POST /api/settings` (built by the app's error handler, `settings` envelope). */
export const SettingsRefusal = Type.Object({
  ok: Type.Literal(false),
  error: Type.Object({ code: Type.String(), message: Type.String() }),
});
export type SettingsRefusal = Static<typeof SettingsRefusal>;
