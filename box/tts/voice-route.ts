// Implements: the words of "which engine speaks": what a caller picked for one call (VoicePick), who
// speaks it (VoiceRoute: engine, voice, and on whose account), the providers the box can speak
// through (ProviderEntry), and the check that a picked voice id is an id at all. Shared by the
// router (accounts.ts), its account health (account-health.ts) and the speakers.
import type { VoiceEngine } from "./engine.ts";

/** What a caller asked for on this call (all optional but the subject). */
export interface VoicePick {
  /** The credential subject speaking (null: the box itself, e.g. its default clip). */
  subject: string | null;
  voice?: string;
  provider?: string;
  /** The face the call speaks for (avatar or variant id): its own voice when nothing else is chosen. */
  avatar?: string;
}

/** Who speaks one call: the engine, the voice, and on whose account. */
export interface VoiceRoute {
  engine: VoiceEngine;
  provider: string;
  label: string;
  /** Undefined: the engine's default voice. */
  voice?: string;
  /** `user`: the person's own provider account (their saved key); `box`: the box's. */
  origin: "box" | "user";
  /** Cache/health key of the account (`box` or `owner:<owner>`). */
  account: string;
  /** Where the person's key failed and the box speaks instead: why (the notice). */
  notice: string;
  /** The sealed key a `user` route speaks with (a new one is tried at once, even while failing). */
  sealedAt?: string;
  /** Who the route speaks for (null or absent: the box itself): the voices it may list. */
  subject?: string | null;
}

/** A provider the box can speak through. */
export interface ProviderEntry {
  id: string;
  label: string;
  local: boolean;
  byo: boolean;
  clone?: boolean;
  prepare?: boolean;
  /** The box's own account for it (BOX_TTS engine, espeak, a box key): null when the box has none. */
  boxEngine: VoiceEngine | null;
  /** A client on a person's own key (hosted providers only). */
  withKey?: (apiKey: string) => VoiceEngine;
  /** The env variable the box's own account needs (`requires_env`), when it has none. */
  requiresEnv?: string;
}

/**
 * Why `voice` cannot be any provider's voice id (null when it can): too long, control characters,
 * or a file path climbing out of a folder (espeak opens an unknown name as a voice file).
 */
export function voiceIdProblem(voice: string): string | null {
  if (voice.length > 200) return `${voice.length} characters`;
  if (/[\u0000-\u001f]/.test(voice)) return "control characters";
  if (voice.includes("\\") || voice.startsWith("/") || /(^|\/)\.\.(\/|$)/.test(voice)) return "a file path";
  return null;
}
