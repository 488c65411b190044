// The seam between Elysia's WebSocket and the socket protocols: one connection, its frozen
// credential (Authentication point 7) and JSON sending.
import type { SessionFrame, VoiceFrame } from "../../shared/wire/socket-frames.ts";
import type { Principal } from "../auth/principal.ts";

/** `F`: the frames this socket may send (the contract's union for its path); any of them by default. */
export interface SocketConn<F extends object = VoiceFrame | SessionFrame> {
  id: string;
  principal: Principal;
  /** The secret presented at upgrade (renewed by an `auth` message); null on an open box. */
  secret: string | null;
  query: URLSearchParams;
  send(frame: F): void;
  close(code: number, reason: string): void;
  readonly closed: boolean;
}

export interface SocketRoute {
  path: string;
  summary: string;
  open(conn: SocketConn): void;
  /** `data` is a parsed JSON value, a string that was not JSON, or a Buffer (binary frame). */
  message(conn: SocketConn, data: unknown): void;
  close(conn: SocketConn, code: number, reason: string): void;
}
