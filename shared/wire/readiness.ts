// Implements: the readiness answer of GET /api/chat/status as a TypeBox model (the box's route
// declares it; the client library and the studio read its type).
import { Type, type Static } from "@sinclair/typebox";

export const ReadinessSchema = Type.Object({
  ready: Type.Boolean(),
  llm: Type.Boolean(),
  tts: Type.Boolean(),
  voice: Type.Boolean(),
  transcribe: Type.Boolean(),
  voice_origin: Type.String(),
  voice_provider: Type.String(),
  llm_state: Type.String(),
  tts_state: Type.String(),
  llm_detail: Type.String(),
  tts_detail: Type.String(),
  starting: Type.Boolean(),
  voice_notice: Type.String(),
  reason: Type.String(),
});
export type Readiness = Static<typeof ReadinessSchema>;
