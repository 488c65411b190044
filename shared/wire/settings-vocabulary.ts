// Implements: the settings record's vocabularies and limits (System tools, built-in tool names,
// voice slots, the Limits this deployment chose) as plain constants: the box's validator and the
// studio's persona panel both read them, and the studio bundle takes no TypeBox for them.
// The TypeBox models built from these live in settings.ts.

export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;
export type EffortLevel = (typeof EFFORT_LEVELS)[number];

/** Voice sessions only; `system_tools` omitted means all four on. */
export const SYSTEM_TOOLS = ["end_call", "skip_turn", "pause_conversation", "change_language"] as const;
export type SystemToolName = (typeof SYSTEM_TOOLS)[number];

/** Run on the server where the deployment switches them on. */
export const BUILT_IN_TOOLS = ["calculate", "current_time", "weather", "lookup_wikipedia", "fetch_url"] as const;

/** Names a custom tool may not take. */
export const RESERVED_TOOL_NAMES: readonly string[] = [...SYSTEM_TOOLS, ...BUILT_IN_TOOLS, "speak"];

/** Added by the platform to every custom tool: the line said while the tool runs. */
export const RESPONSE_TO_USER = "response_to_user";

export const TOOL_MODES = ["await_result", "fire_and_forget"] as const;
export type ToolMode = (typeof TOOL_MODES)[number];

/** A custom tool's `name`. */
export const TOOL_NAME_PATTERN = "^[a-z][a-z0-9_]*$";

export const PARAMETER_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;

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
