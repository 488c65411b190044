// The client library (`<package>/client`): browsers, Bun and Node, no runtime dependency beyond
// the platform (fetch, WebSocket, RTCPeerConnection, TextDecoder). Types come from the wire's
// schemas in shared/wire/, imported as types only.
export { AvatarClient, type AvatarClientOptions } from "./avatar-client.ts";
export { BoxClient, type BoxClientOptions } from "./box-client.ts";
export { ChatStream, type ChatFrame, type ChatStreamEvents } from "./chat-stream.ts";
export {
  LiveMedia,
  connectMedia,
  prepareOffer,
  type PreparedOffer,
  type ConnectOptions,
  type LiveMediaEvents,
  type MediaElementLike,
} from "./connect.ts";
export {
  Credentials,
  portalCredentialProvider,
  readGrant,
  renewDelayMs,
  type CredentialOption,
  type TokenGrant,
  type TokenProvider,
} from "./credentials.ts";
export { AvatarApiError, ToolError, parseErrorBody, type ErrorSource } from "./errors.ts";
export type { ErrorCode } from "../wire/error-codes.ts";
export type { Handlers } from "./events.ts";
export { HttpCore, type FetchLike } from "./http.ts";
export {
  MIC_CONSTRAINTS,
  PcmFramer,
  PcmResampler,
  micProblem,
  type MicState,
  type Microphone,
  type MicrophoneOptions,
} from "./microphone.ts";
export { NdjsonReader, readNdjson } from "./ndjson.ts";
export { backoffDelay, closeVerdict, type BackoffOptions, type CloseVerdict, type DisconnectReason } from "./reconnect.ts";
export { SessionSocket, TALK_TEXT_MAX, type SessionSocketOptions, type TurnResult } from "./session-socket.ts";
export type { SocketLocalEvents, SocketOptions, TimingMark, WebSocketCtor, WebSocketLike } from "./socket-base.ts";
export {
  GENERIC_TOOL_FAILURE,
  REMEMBERED_CALL_IDS,
  TOOL_RESULT_MAX_BYTES,
  ToolDispatcher,
  ToolRegistry,
  type ToolCallContext,
  type ToolHandler,
} from "./tools.ts";
export { VoiceSocket, type VoiceConfig, type VoiceSocketOptions } from "./voice-socket.ts";
export type * from "./types.ts";
export type * from "./wire.ts";
