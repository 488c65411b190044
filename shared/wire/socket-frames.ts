// Implements: Events (voice socket, control socket) and the System-tool wire frames, as types.
// Type-only: nothing here exists at run time. The box's senders take these unions, so a frame
// the contract does not name fails to compile; the client library reads the same maps.
import type { Tone } from "./tones.ts";
import type { ToolFrames } from "./turn-events.ts";

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
/** The refusal both sockets send before closing with the same sentence and 4000-range code. */
export interface FatalErrorFrame {
  type: "error";
  error: string;
  fatal: true;
  code: number;
}
/** What the credential and window watch (either socket) sends. */
export type SocketSessionFrame = AuthRequiredFrame | AuthStateFrame | SessionExpiredFrame | FatalErrorFrame;

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
  session_end: SessionEndFrame;
  voice_notice: { type: "voice_notice"; notice: string };
  auth_required: AuthRequiredFrame;
  auth_state: AuthStateFrame;
  error: { type: "error"; error: string; fatal?: boolean; code?: number };
  /** Not among the seventeen, but every open socket hears it when a window ends the session. */
  session_expired: SessionExpiredFrame;
}
/** Any frame the voice socket sends. */
export type VoiceFrame = VoiceFrames[keyof VoiceFrames];

export interface SessionEndFrame {
  type: "session_end";
  reason: "ended_by_persona_request" | (string & {});
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
/** Any frame the control socket sends. */
export type SessionFrame = SessionFrames[keyof SessionFrames];

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
