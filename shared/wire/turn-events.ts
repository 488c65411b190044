// Implements: the frames a turn emits on every surface (Tool frames, `reply_chunk`) and the
// typed-turn event stream of POST /api/chat (NDJSON), as types. Type-only: nothing here exists at
// run time. The box's turn engine emits `TurnEvent`; the client library reads `ChatFrames`.
import type { ToolMode } from "./settings-vocabulary.ts";
import type { Tone } from "./tones.ts";

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
/** `local: true` when the client library raised it itself (the socket closed mid-call); never sent by the box. */
export interface ToolCallFailedFrame {
  type: "tool_call_failed";
  call_id: string;
  name: string;
  reason: ToolFailReason;
  local?: boolean;
}
/** Client to server: the result of a `tool_call` with `await_result`. */
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

/** What a running turn emits, whichever surface carries it (the box's turn engine sends these):
 * one `reply_chunk` per clause, in a tone the deployment built, and the tool frames. */
export type TurnEvent = { type: "reply_chunk"; text: string; tone: Tone } | ToolFrames[keyof ToolFrames];

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
