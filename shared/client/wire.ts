// Implements: Events (voice socket, control socket), Tool frames and System-tool wire frames, as
// types. Type-only: nothing here exists at run time.
import type { Tone } from "../wire/tones.ts";
import type { ToolMode } from "../wire/settings-vocabulary.ts";

/** Tool-call failure reasons known today; the list is append-only, so any string may arrive. */
export type KnownToolFailReason = "timeout" | "host_error" | "invalid_args" | "not_enabled" | "no_host" | "session_closed" | "cancelled";
export type ToolFailReason = KnownToolFailReason | (string & {});
export type { ToolMode };

// ---- tool frames (same on both sockets and the typed-turn stream) ----------------------------
export interface ToolCallStartedFrame {
  type: "tool_call_started";
  call_id: string;
  name: string;
  mode: ToolMode;
}
export interface ToolCallFrame {
  type: "tool_call";
  call_id: string;
  name: string;
  args: Record<string, unknown>;
  mode: ToolMode;
  timeout_seconds: number;
}
export interface ToolCallCompletedFrame {
  type: "tool_call_completed";
  call_id: string;
  name: string;
  duration_ms: number;
}
/** `local: true` when the library raised it itself (the socket closed mid-call). */
export interface ToolCallFailedFrame {
  type: "tool_call_failed";
  call_id: string;
  name: string;
  reason: ToolFailReason;
  local?: boolean;
}
export type ToolResultFrame =
  | { type: "tool_result"; call_id: string; ok: true; result: unknown }
  | { type: "tool_result"; call_id: string; ok: false; error: string };
/** `tool {name, label}` while a tool runs (voice socket, typed turn; the control socket sends it too). */
export interface ToolLabelFrame {
  type: "tool";
  name: string;
  label: string;
}

export interface ToolFrames {
  tool_call_started: ToolCallStartedFrame;
  tool_call: ToolCallFrame;
  tool_call_completed: ToolCallCompletedFrame;
  tool_call_failed: ToolCallFailedFrame;
  tool: ToolLabelFrame;
}

// ---- shared by both sockets -------------------------------------------------------------------
export interface AuthRequiredFrame {
  type: "auth_required";
  message: string;
}
export interface AuthStateFrame {
  type: "auth_state";
  live: boolean;
}
export interface SessionExpiredFrame {
  type: "session_expired";
  reason: "idle" | "max_length" | (string & {});
  message: string;
  seconds: number;
  code: number;
}

// ---- voice socket (server to client): seventeen types ------------------------------------------
export interface VoiceFrames extends ToolFrames {
  ready: { type: "ready"; sample_rate: number; voice_origin: "box" | "user" | (string & {}) };
  partial: { type: "partial"; text: string };
  endpoint: { type: "endpoint"; eot: number | boolean; wait_ms: number; reason: string };
  final: { type: "final"; text: string; continues: boolean };
  caption_clear: { type: "caption_clear" };
  state: { type: "state"; thinking?: boolean; speaking?: boolean; bargein?: boolean };
  action: ActionFrame;
  reply_chunk: { type: "reply_chunk"; text: string; tone: Tone | (string & {}) };
  metric: { type: "metric"; first_audio_ms: number; spec: boolean };
  reply: { type: "reply"; reply: string; tone: Tone | (string & {}); avatar: string };
  reply_error: { type: "reply_error"; error: string };
  session_end: { type: "session_end"; reason: "ended_by_persona_request" | (string & {}) };
  voice_notice: { type: "voice_notice"; notice: string };
  auth_required: AuthRequiredFrame;
  auth_state: AuthStateFrame;
  error: { type: "error"; error: string; fatal?: boolean; code?: number };
  /** Not among the seventeen, but every open socket hears it when a window ends the session. */
  session_expired: SessionExpiredFrame;
}

/** `action`: the persona acts rather than speaks; a pause is shown only on a frame with `paused`. */
export interface ActionFrame {
  type: "action";
  name: "end_call" | "skip_turn" | "pause_conversation" | "change_language" | (string & {});
  label: string;
  paused?: boolean;
  max_seconds?: number;
  reason?: "spoke" | "resumed" | "timed_out" | (string & {});
  language?: string;
  applied?: boolean;
  voice_id?: string;
  voice_label?: string;
}

// ---- control socket (server to client, camelCase): twelve types ---------------------------------
export interface SessionFrames extends ToolFrames {
  session_ready: { type: "session_ready"; sessionId: string; avatar: string; tones: string[] };
  user_message: { type: "user_message"; id: string; role: "user"; content: string; correlationId: string };
  message_stream: MessageStreamFrame;
  message: MessageFrame;
  avatar_speech_started: { type: "avatar_speech_started"; correlationId: string };
  avatar_speech_ended: { type: "avatar_speech_ended"; correlationId: string };
  interrupted: { type: "interrupted" };
  warning: { type: "warning"; message: string };
  auth_required: AuthRequiredFrame;
  auth_state: AuthStateFrame;
  error: { type: "error"; error: string; fatal: boolean; code?: number };
  session_expired: SessionExpiredFrame;
}
export interface MessageStreamFrame {
  type: "message_stream";
  id: string;
  role: "assistant";
  content: string;
  contentIndex: number;
  endOfSpeech: boolean;
  tone: string;
  correlationId: string;
}
export interface MessageFrame {
  type: "message";
  id: string;
  role: "assistant";
  content: string;
  tone: string;
  avatar: string;
  correlationId: string;
}

// ---- control socket (client to server) -----------------------------------------------------------
export interface MessageOptions {
  avatar?: string;
  voice?: string;
  correlationId?: string;
}
export interface TalkOptions {
  voice?: string;
  tone?: Tone | (string & {});
  correlationId?: string;
}

// ---- the typed-turn event stream (POST /api/chat, NDJSON) ------------------------------------------
export interface ChatFrames extends ToolFrames {
  reply_chunk: { type: "reply_chunk"; text: string; tone: string };
  reply: ChatReplyFrame;
  error: { type: "error"; error: string; interrupted?: boolean };
}
/** The closing `reply` frame: the whole non-streamed body plus `type`. */
export type ChatReplyFrame = { type: "reply" } & ChatReply;

/** `POST /api/chat` body: live session connected (streamed into it) or not (a WAV for /offer). */
export type ChatReply = ChatReplyLive | ChatReplyOneShot;
export interface ChatReplyLive {
  reply: string;
  tone: string;
  avatar: string;
  tools: string[];
  streamed: true;
  identity: string;
  tones: string[];
  voice_notice: string;
}
export interface ChatReplyOneShot {
  reply: string;
  tone: string;
  audio: string;
  identity: string;
  tones: string[];
  voice_notice: string;
}
