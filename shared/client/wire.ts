// Implements: Events (voice socket, control socket), Tool frames and System-tool wire frames, as
// types for the client library: the frames are declared once in shared/wire (the box sends the
// same types) and re-exported here under the library's names. Type-only: nothing here exists at
// run time.
import type { Tone } from "../wire/tones.ts";

export type {
  KnownToolFailReason,
  ToolFailReason,
  ToolMode,
  ToolCallStartedFrame,
  ToolCallFrame,
  ToolCallCompletedFrame,
  ToolCallFailedFrame,
  ToolResultFrame,
  ToolLabelFrame,
  ToolFrames,
  ChatFrames,
  ChatReplyFrame,
  ChatReply,
  ChatReplyLive,
  ChatReplyOneShot,
  TurnEvent,
} from "../wire/turn-events.ts";
export type {
  AuthRequiredFrame,
  AuthStateFrame,
  SessionExpiredFrame,
  FatalErrorFrame,
  SocketSessionFrame,
  VoiceFrame,
  SessionEndFrame,
  SessionFrame,
  VoiceFrames,
  ActionFrame,
  SessionFrames,
  MessageStreamFrame,
  MessageFrame,
} from "../wire/socket-frames.ts";

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
