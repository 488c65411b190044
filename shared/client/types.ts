// Implements: Resources and their fields, as the box routes answer them. Types come from the box's
// own TypeBox schemas where it exports them (type-only imports: nothing of the box runs here);
// the rest are written from the spec's tables and the box's route declarations.
import type { Static } from "@sinclair/typebox";
import type { ReadinessSchema } from "../../box/readiness/routes.ts";
import type { AudioListSchema, AudioRowSchema, UploadAnswerSchema } from "../../box/uploads/schema.ts";
import type { ClientContext } from "../../box/live/client-context.ts";
import type { CustomTool, SettingsEnvelope, SettingsRecord, SettingsWriteAnswer, SettingsRefusal } from "../../box/settings/schema.ts";
import type { CatalogueRow } from "../../box/catalogue/schema.ts";

export type { ClientContext, CustomTool, SettingsEnvelope, SettingsRecord, SettingsWriteAnswer, SettingsRefusal, CatalogueRow };
export type Readiness = Static<typeof ReadinessSchema>;
export type AudioRow = Static<typeof AudioRowSchema>;
export type AudioList = Static<typeof AudioListSchema>;
export type AudioUploadAnswer = Static<typeof UploadAnswerSchema>;
/** A custom tool as written: `parameters`, `timeout_seconds` (8) and `enabled` (true) may be left out. */
export type CustomToolInput = Pick<CustomTool, "name" | "description" | "mode"> & Partial<Pick<CustomTool, "parameters" | "timeout_seconds" | "enabled">>;
/** Any subset of the settable fields; unsent fields are left alone, `tools` is written whole. */
export type SettingsPatch = Partial<Omit<SettingsRecord, "tools">> & { tools?: CustomToolInput[] };

export interface Ok { ok: true }
export interface RootInfo { service: string; status: "ok"; openapi: string }
export interface Health { status: "ok"; avatar: string | null; speaking_face: string | null }
export interface Stats { shutdown_minutes: number | null; cpu_percent: number; cpu_cores: number; gpus: { name: string; memory_used_mb: number; utilization: number }[] }

/** `POST /v1/streaming.create_token` (one of the three routes wrapping their payload in `data`). */
export interface SessionTokenAnswer { data: SessionToken }
export interface SessionToken { token: string; expires_at: number; scope: "tts" }
/** `POST /auth/session/credential` (portal). */
export interface SessionCredentialAnswer { credential: SessionCredential }
export interface SessionCredential { secret: string; expires_at: number; expires_in: number; scope: "full" }

// ---- conversations (the list's `turns` is a count, the single read's an array: separate types) --
export interface ConversationRow { id: string; title: string; preview: string; turns: number; created_at: number; updated_at: number }
export interface ConversationPage { items: ConversationRow[]; next_cursor: string | null }
export interface ConversationTurn { role: "user" | "assistant"; text: string; ts: number; tone: null }
export type Conversation =
  | (Omit<ConversationRow, "turns"> & { turns: ConversationTurn[] })
  | { id: string; turns: []; transcript_unavailable: true };
export interface ChatResetAnswer { ok: true; data: { conversation_id: string | null } }
export interface DeletedConversation { ok: true; id: string }
export type ToolResultDisposition = { ok: true; disposition: "accepted" } | { ok: false; disposition: "ignored"; reason: string };

// ---- chat, talk, signalling ----------------------------------------------------------------------
export interface ChatRequest { message: string; voice?: string; voice_provider?: string; avatar?: string }
export interface TalkRequest { text: string; voice?: string; tone?: string }
export interface TalkAnswer { ok: true; spoken: string }
export interface ConnectRequest { sdp: string; type: string; avatar?: string; client_context?: ClientContext }
export interface ConnectAnswer { sdp: string; type: "answer"; avatar: string; silence: string; idle_stand_in: boolean }
export interface OfferRequest { sdp: string; type: string; emotion_responsive?: boolean; audio?: string; avatar?: string; tone?: string }
export interface OfferAnswer { sdp: string; type: "answer"; avatar: string; emotion: string; transcript: string }

// ---- avatars and clips ---------------------------------------------------------------------------
export interface AvatarGroup { id: string; label: string; variants: string[]; tones: string[]; preview: string; stock: boolean }
export interface LoadedAvatars { avatars: string[]; groups: AvatarGroup[]; preparing: string[]; active: string; active_group: string; builds: Record<string, unknown> }
export interface VideoRow { id: string; status: string; kind: string; bytes: number | null; identity: string; emotion: string; active: boolean; deletable: boolean; registry_note: string | null }
export interface VideoList { videos: VideoRow[]; active: string }
export interface AvatarUploadAnswer { avatar: string; status: "preparing" | "ready"; tones: string[]; note: string; active: string }
export interface AvatarDeleteAnswer { deleted: string; active: string; videos: VideoRow[] }
export interface PhotoAvatarAnswer { data: { avatar_id: string; clips: PhotoAvatarClip[] } }
export interface PhotoAvatarClip { tone: string; template: string; path: string; duration_s: number; fps: number; loop_frame: number; avatar_id: string; queued: boolean }
export type ClipState = "generated" | "generating" | "failed" | "not_requested" | (string & {});
export interface ClipRow { tone: string; state: ClipState; variant_id: string; duration_s: number; updated_at: number; detail: string }
export interface ClipList { avatar: string; clips: ClipRow[] }
export interface ClipRetryAnswer { avatar: string; tone: string; variant_id: string; state: "generating" }

/** Multipart parts of `POST /api/avatar`; `takes` become `take__<tone>` / `take__<tone>__<n>`. */
export interface AvatarUpload {
  file: Blob;
  /** The avatar id is derived from it; defaults to the File's own name. */
  filename?: string;
  tones?: string[] | string;
  consent_token?: string;
  framing?: string;
  gesture_amplitude?: string;
  ai_generated?: boolean | string;
  takes?: Record<string, Blob | Blob[]>;
}
export interface PhotoAvatarUpload extends Omit<AvatarUpload, "takes"> { avatar_id: string }

// ---- voices --------------------------------------------------------------------------------------
export interface VoiceRow { provider: string; id: string; name: string; language: string; gender: string; description: string; preview: string; recommended: boolean; [other: string]: unknown }
export type VoiceGroupState = "ready" | "empty" | "starting" | "refused" | "unreachable" | "timed_out" | "key_problem" | (string & {});
export interface VoiceGroup { provider: string; label: string; state: VoiceGroupState; reason: string; local: boolean; voices: VoiceRow[] }
export interface VoiceCatalogue {
  groups: VoiceGroup[];
  voices: VoiceRow[];
  current: string | null;
  current_provider: string;
  engine_ready: boolean;
  provider: string;
  provider_label: string;
  requires_env: string | null;
  voices_from: string;
  local: boolean;
  byo: boolean;
  voice_notice: string;
}
export interface VoiceUploadAnswer { ok: true; voice_id: string; voices: VoiceRow[]; current: string | null }
export interface AudioUpload { file: Blob; filename?: string; name?: string; transcript?: string; tone?: string }
