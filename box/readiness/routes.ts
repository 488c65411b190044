// Implements: GET /api/chat/status.
import { Type } from "@sinclair/typebox";
import { route, type RouteDef } from "../http/route.ts";
import { readiness, type ReadinessSources } from "./service.ts";

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

export function readinessRoutes(sources: ReadinessSources): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/api/chat/status",
      summary: "Whether a chat turn can run for this credential, and why not",
      envelope: "flat",
      responses: { 200: ReadinessSchema },
      handler: ({ principal }) => readiness(sources, principal.subject),
    }),
  ];
}
