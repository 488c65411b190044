// Implements: the voice catalogue of GET /api/voices and the answer of POST /api/voice/upload as
// TypeBox models: the box's routes declare them, the client library and the studio read their types.
import { Type, type Static } from "@sinclair/typebox";

/** One voice; providers may add fields of their own. */
export const VoiceRowSchema = Type.Object(
  {
    provider: Type.String(),
    id: Type.String(),
    name: Type.String(),
    language: Type.String(),
    gender: Type.String(),
    description: Type.String(),
    preview: Type.String(),
    recommended: Type.Boolean(),
  },
  { additionalProperties: true },
);
/** One voice engine's voices, and in what state the engine is. */
export const VoiceGroupSchema = Type.Object({
  provider: Type.String(),
  label: Type.String(),
  state: Type.String(),
  reason: Type.String(),
  local: Type.Boolean(),
  voices: Type.Array(VoiceRowSchema),
});
export const VoiceCatalogueSchema = Type.Object({
  groups: Type.Array(VoiceGroupSchema),
  voices: Type.Array(VoiceRowSchema),
  current: Type.Union([Type.String(), Type.Null()]),
  current_provider: Type.String(),
  engine_ready: Type.Boolean(),
  provider: Type.String(),
  provider_label: Type.String(),
  requires_env: Type.Union([Type.String(), Type.Null()]),
  voices_from: Type.String(),
  local: Type.Boolean(),
  byo: Type.Boolean(),
  voice_notice: Type.String(),
});
export const VoiceUploadAnswerSchema = Type.Object({
  ok: Type.Literal(true),
  voice_id: Type.String(),
  voices: Type.Array(VoiceRowSchema),
  current: Type.Union([Type.String(), Type.Null()]),
});

/** The states known today; the list may grow, so any string may arrive. */
export type VoiceGroupState = "ready" | "empty" | "starting" | "refused" | "unreachable" | "timed_out" | "key_problem" | (string & {});
export type VoiceRow = Static<typeof VoiceRowSchema> & { [other: string]: unknown };
export type VoiceGroup = Omit<Static<typeof VoiceGroupSchema>, "state" | "voices"> & { state: VoiceGroupState; voices: VoiceRow[] };
export type VoiceCatalogue = Omit<Static<typeof VoiceCatalogueSchema>, "groups" | "voices"> & { groups: VoiceGroup[]; voices: VoiceRow[] };
export type VoiceUploadAnswer = Omit<Static<typeof VoiceUploadAnswerSchema>, "voices"> & { voices: VoiceRow[] };
