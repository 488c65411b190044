// Implements: the voice-key operations: the person's voice engine choice and saved provider keys. One
// group of the portal's OpenAPI route table (assembled in ../operations.ts).
import { ChooseVoiceEngineBody, SaveVoiceKeyBody, VoiceSettings } from "../../voice-keys/schema.ts";
import { wrap } from "../schemas.ts";
import type { PortalOperation } from "./operation.ts";

export const VOICE_KEY_OPERATIONS: PortalOperation[] = [
  {
    method: "GET",
    route: "/auth/voice/settings",
    tag: "Voice keys",
    summary: "Your voice engine and saved provider keys (masked)",
    auth: "session",
    responses: { 200: wrap("voice", VoiceSettings) },
  },
  {
    method: "PUT",
    route: "/auth/voice/key",
    tag: "Voice keys",
    summary: "Save a hosted provider's key (checked with the provider first)",
    auth: "session",
    body: SaveVoiceKeyBody,
    responses: { 200: wrap("voice", VoiceSettings) },
    refusals: {
      400: ["invalid_body", "unknown_voice_provider", "invalid_voice_key", "voice_key_rejected"],
      502: ["voice_key_check_failed"],
    },
  },
  {
    method: "DELETE",
    route: "/auth/voice/key/:provider",
    tag: "Voice keys",
    summary: "Delete a saved provider key",
    auth: "session",
    responses: { 200: wrap("voice", VoiceSettings) },
    refusals: { 400: ["unknown_voice_provider"] },
  },
  {
    method: "PUT",
    route: "/auth/voice/engine",
    tag: "Voice keys",
    summary: "Choose the voice engine (a hosted one needs its key saved)",
    auth: "session",
    body: ChooseVoiceEngineBody,
    responses: { 200: wrap("voice", VoiceSettings) },
    refusals: { 400: ["invalid_body", "unknown_voice_engine"], 409: ["voice_key_required"] },
  },
];
