// Implements: Resources and their fields, as the box and the portal answer them. Types come from
// the wire's TypeBox schemas in shared/wire/ (type-only imports: nothing of TypeBox runs here);
// the rest are written from the spec's tables and the box's route declarations.
import type { ClientContext } from "../wire/client-context.ts";
import type { CustomTool, SettingsEnvelope, SettingsRecord, SettingsWriteAnswer, SettingsRefusal } from "../wire/settings.ts";
import type { CatalogueRow } from "../wire/catalogue.ts";
import type { Readiness } from "../wire/readiness.ts";
import type { AudioList, AudioRow, AudioUploadAnswer } from "../wire/uploads.ts";
import type { SessionCredential, SessionCredentialAnswer } from "../wire/credential.ts";
import type {
  ChatResetAnswer,
  Conversation,
  ConversationPage,
  ConversationRow,
  ConversationTurn,
  DeletedConversation,
} from "../wire/conversations.ts";
import type { AvatarGroup, LoadedAvatars, VideoList, VideoRow } from "../wire/avatars.ts";
import type { VoiceCatalogue, VoiceGroup, VoiceGroupState, VoiceRow, VoiceUploadAnswer } from "../wire/voices.ts";

export type { ClientContext, CustomTool, SettingsEnvelope, SettingsRecord, SettingsWriteAnswer, SettingsRefusal, CatalogueRow };
export type { Readiness, AudioRow, AudioList, AudioUploadAnswer, SessionCredential, SessionCredentialAnswer };
export type { ChatResetAnswer, Conversation, ConversationPage, ConversationRow, ConversationTurn, DeletedConversation };
export type { VoiceCatalogue, VoiceGroup, VoiceGroupState, VoiceRow, VoiceUploadAnswer, AvatarGroup, LoadedAvatars, VideoList, VideoRow };
/** A custom tool as written: `parameters`, `timeout_seconds` (8) and `enabled` (true) may be left out. */
export type CustomToolInput = Pick<CustomTool, "name" | "description" | "mode"> &
  Partial<Pick<CustomTool, "parameters" | "timeout_seconds" | "enabled">>;
/** Any subset of the settable fields; unsent fields are left alone, `tools` is written whole. */
export type SettingsPatch = Partial<Omit<SettingsRecord, "tools">> & { tools?: CustomToolInput[] };

export interface Ok {
  ok: true;
}
export interface RootInfo {
  service: string;
  status: "ok";
  openapi: string;
}
export interface Health {
  status: "ok";
  avatar: string | null;
  speaking_face: string | null;
}
export interface Stats {
  shutdown_minutes: number | null;
  cpu_percent: number;
  cpu_cores: number;
  gpus: { name: string; memory_used_mb: number; utilization: number }[];
}

/** `POST /v1/streaming.create_token` (one of the three routes wrapping their payload in `data`). */
export interface SessionTokenAnswer {
  data: SessionToken;
}
export interface SessionToken {
  token: string;
  expires_at: number;
  scope: "tts";
}

/** `POST /api/chat/tool_result`: a tool result sent over HTTP. */
export type ToolResultDisposition = { ok: true; disposition: "accepted" } | { ok: false; disposition: "ignored"; reason: string };

// ---- chat, talk, signalling ----------------------------------------------------------------------
export interface ChatRequest {
  message: string;
  voice?: string;
  voice_provider?: string;
  avatar?: string;
}
export interface TalkRequest {
  text: string;
  voice?: string;
  tone?: string;
}
export interface TalkAnswer {
  ok: true;
  spoken: string;
}
export interface ConnectRequest {
  sdp: string;
  type: string;
  avatar?: string;
  client_context?: ClientContext;
}
export interface ConnectAnswer {
  sdp: string;
  type: "answer";
  avatar: string;
  silence: string;
  idle_stand_in: boolean;
}
export interface OfferRequest {
  sdp: string;
  type: string;
  emotion_responsive?: boolean;
  audio?: string;
  avatar?: string;
  tone?: string;
}
export interface OfferAnswer {
  sdp: string;
  type: "answer";
  avatar: string;
  emotion: string;
  transcript: string;
}

// ---- avatars and clips ---------------------------------------------------------------------------
export interface AvatarUploadAnswer {
  avatar: string;
  status: "preparing" | "ready";
  tones: string[];
  note: string;
  active: string;
}
export interface AvatarDeleteAnswer {
  deleted: string;
  active: string;
  videos: VideoRow[];
}
export interface PhotoAvatarAnswer {
  data: { avatar_id: string; clips: PhotoAvatarClip[] };
}
export interface PhotoAvatarClip {
  tone: string;
  template: string;
  path: string;
  duration_s: number;
  fps: number;
  loop_frame: number;
  avatar_id: string;
  queued: boolean;
}
export type ClipState = "generated" | "generating" | "failed" | "not_requested" | (string & {});
export interface ClipRow {
  tone: string;
  state: ClipState;
  variant_id: string;
  duration_s: number;
  updated_at: number;
  detail: string;
}
export interface ClipList {
  avatar: string;
  clips: ClipRow[];
}
export interface ClipRetryAnswer {
  avatar: string;
  tone: string;
  variant_id: string;
  state: "generating";
}

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
export interface PhotoAvatarUpload extends Omit<AvatarUpload, "takes"> {
  avatar_id: string;
}

// ---- voices --------------------------------------------------------------------------------------
export interface AudioUpload {
  file: Blob;
  filename?: string;
  name?: string;
  transcript?: string;
  tone?: string;
}
