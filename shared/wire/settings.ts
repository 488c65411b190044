// Implements: Settings record, Settings read envelope, Custom tool definition, System tools,
// Box: settings (write answer), service-spec.md. TypeBox models of what `GET/POST /api/settings`
// carry; the vocabularies and limits they are built from are plain constants in
// settings-vocabulary.ts (re-exported here for the box's validator).
import { Type, type Static, type TNull, type TString, type TUnion } from "@sinclair/typebox";
import { CatalogueRow, REASONING_LEVELS, ReasoningLevel } from "./catalogue.ts";
import { LANGUAGES } from "./tones.ts";
import {
  EFFORT_LEVELS,
  PARAMETER_TYPES,
  SYSTEM_TOOLS,
  TOOL_MODES,
  TOOL_NAME_PATTERN,
  VOICE_SLOT_FIELDS,
  type VoiceSlotName,
} from "./settings-vocabulary.ts";

export * from "./settings-vocabulary.ts";
export { REASONING_LEVELS, ReasoningLevel, LANGUAGES };

export const EffortLevel = Type.Union(EFFORT_LEVELS.map((l) => Type.Literal(l)));
export type EffortLevel = (typeof EFFORT_LEVELS)[number];
export const SystemToolName = Type.Union(SYSTEM_TOOLS.map((n) => Type.Literal(n)));
export type SystemToolName = (typeof SYSTEM_TOOLS)[number];

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

/** A stored custom tool: defaults filled in, so every field is present. */
export const CustomTool = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 64, pattern: TOOL_NAME_PATTERN }),
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
