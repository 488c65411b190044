// Implements: Resources: Voice settings (portal); Endpoints: `/auth/voice/*` (bodies and limits).
import { Type, type Static } from "@sinclair/typebox";

/** The box's embedded engine: always selectable, no account, no key. */
export const BUILT_IN_ENGINE = "espeak" as const;
/** The two hosted providers, first hosted provider first (the order of `voice.engines`). */
export const HOSTED_PROVIDERS = ["elevenlabs", "cartesia"] as const;
export type HostedProvider = (typeof HOSTED_PROVIDERS)[number];
export type VoiceEngineId = typeof BUILT_IN_ENGINE | HostedProvider;

/** Longest provider key we accept, in characters (real keys are well under 100). */
export const VOICE_KEY_MAX_CHARS = 512;

export const isHostedProvider = (v: unknown): v is HostedProvider =>
  typeof v === "string" && (HOSTED_PROVIDERS as readonly string[]).includes(v);

export const VoiceEngine = Type.Object({
  id: Type.String(),
  label: Type.String(),
  byo: Type.Boolean(),
  provider: Type.Union([Type.String(), Type.Null()]),
  note: Type.String(),
});
export type VoiceEngine = Static<typeof VoiceEngine>;

/** A saved key as it leaves the portal: never the plaintext, never the ciphertext. */
export const VoiceKeyEntry = Type.Object({
  provider: Type.String(),
  last4: Type.String(),
  masked: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  validated: Type.Union([Type.Boolean(), Type.Null()]),
  validated_at: Type.Union([Type.Integer(), Type.Null()]),
});
export type VoiceKeyEntry = Static<typeof VoiceKeyEntry>;

export const VoiceSettings = Type.Object({
  engine: Type.String(),
  engines: Type.Array(VoiceEngine),
  keys: Type.Array(VoiceKeyEntry),
});
export type VoiceSettings = Static<typeof VoiceSettings>;

/** `PUT /auth/voice/key` body. */
export const SaveVoiceKeyBody = Type.Object({ provider: Type.String(), key: Type.String() });
/** `PUT /auth/voice/engine` body. */
export const ChooseVoiceEngineBody = Type.Object({ engine: Type.String() });
