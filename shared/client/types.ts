// Implements: Resources and their fields, as the box and the portal answer them. Types come from
// the wire's TypeBox schemas in shared/wire/ (type-only imports: nothing of TypeBox runs here);
// the rest (multipart uploads, answers the box declares no schema for) are written from the spec's
// tables and the box's route handlers.
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
import type { Health, Ok, RootInfo, Stats } from "../wire/system.ts";
import type { SessionToken, SessionTokenAnswer } from "../wire/session-token.ts";
import type { ConnectAnswer, ConnectBody, OfferAnswer, OfferBody, TalkAnswer, TalkBody } from "../wire/live.ts";
import type { ChatBody, ToolResultDisposition } from "../wire/chat.ts";
import type { ClipList as ClipListSchema, ClipRetryAnswer, ClipRow as ClipRowSchema } from "../wire/clips.ts";

export type { ClientContext, CustomTool, SettingsEnvelope, SettingsRecord, SettingsWriteAnswer, SettingsRefusal, CatalogueRow };
export type { Readiness, AudioRow, AudioList, AudioUploadAnswer, SessionCredential, SessionCredentialAnswer };
export type { ChatResetAnswer, Conversation, ConversationPage, ConversationRow, ConversationTurn, DeletedConversation };
export type { VoiceCatalogue, VoiceGroup, VoiceGroupState, VoiceRow, VoiceUploadAnswer, AvatarGroup, LoadedAvatars, VideoList, VideoRow };
/** A custom tool as written: `parameters`, `timeout_seconds` (8) and `enabled` (true) may be left out. */
export type CustomToolInput = Pick<CustomTool, "name" | "description" | "mode"> &
  Partial<Pick<CustomTool, "parameters" | "timeout_seconds" | "enabled">>;
/** Any subset of the settable fields; unsent fields are left alone, `tools` is written whole. */
export type SettingsPatch = Partial<Omit<SettingsRecord, "tools">> & { tools?: CustomToolInput[] };

export type { Ok, RootInfo, Health, Stats, SessionToken, SessionTokenAnswer, ToolResultDisposition };
export type { ConnectAnswer, OfferAnswer, TalkAnswer, ClipRetryAnswer };

// ---- chat, talk, signalling ----------------------------------------------------------------------
/** `stream` is the library's to set (the turn's event stream is read when tools or chunks are wanted). */
export type ChatRequest = Omit<ChatBody, "stream">;
/** The box also reads `content` in place of `text`; the library always sends `text`. */
export type TalkRequest = Omit<TalkBody, "text" | "content"> & { text: string };
export type ConnectRequest = Omit<ConnectBody, "client_context"> & { client_context?: ClientContext };
export type OfferRequest = OfferBody;

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
/** The box's row, with the states the contract names spelled out. */
export type ClipRow = Omit<ClipRowSchema, "state"> & { state: ClipState };
export type ClipList = Omit<ClipListSchema, "clips"> & { clips: ClipRow[] };

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
