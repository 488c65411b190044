// The seam between Elysia's WebSocket and the socket protocols: one connection, its frozen
// credential (Authentication point 7) and JSON sending.
import type { Principal } from "../auth/principal.ts";

export interface SocketConn {
  id: string;
  principal: Principal;
  /** The secret presented at upgrade (renewed by an `auth` message); null on an open box. */
  secret: string | null;
  query: URLSearchParams;
  send(frame: object): void;
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
