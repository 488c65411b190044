// Implements: Authentication points 6-7 on sockets (credential frozen per socket, renewed by
// `auth`, `auth_required` once per lapse, revoked → fatal error + 4004) and the session end
// rows for idle (4007) and maximum length (4008). Heartbeats and pauses are not activity.
// A socket driving the live session shares its idle clock, and a window that runs out on the
// socket ends the live session itself: every socket on it then hears `session_expired`.
import type { Authenticator } from "../auth/principal.ts";
import type { LiveSession } from "../live/live-session.ts";
import { CLOSE, windowRunOut, type SessionExpiry, type SessionWindows } from "../live/session-end.ts";
import type { SocketSessionFrame } from "../../shared/wire/socket-frames.ts";
import type { SocketConn } from "./conn.ts";

export type SocketPolicy = SessionWindows;
export { CLOSE };

/** The live session a socket drives, and how a window that ran out on the socket ends it. */
export interface LiveBinding {
  current(): LiveSession | null;
  expire(session: LiveSession, expiry: SessionExpiry): void;
  /** The socket's credential was revoked (the mic socket's voice session ends with it). */
  revoked?(): void;
}

export class SocketSession {
  private readonly startedAt: number;
  private lastActivity: number;
  private lapsed = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private checking = false;
  ended = false;

  constructor(
    private readonly conn: SocketConn<SocketSessionFrame>,
    private readonly auth: Authenticator,
    private readonly policy: SocketPolicy,
    private readonly onEnd: () => void,
    private readonly live: LiveBinding | null = null,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.startedAt = this.lastActivity = now();
    live?.current()?.touch(); // opening a socket on the session is the client engaging with it
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.policy.checkEveryMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  activity(): void {
    this.lastActivity = this.now();
    this.live?.current()?.touch();
  }

  /** `auth {token}`: a fresh credential for the same identity; answered with `auth_state`. */
  async renew(token: unknown): Promise<void> {
    let live = false;
    if (typeof token === "string" && token.length > 0 && token.length < 512) {
      try {
        const p = await this.auth.resolve(token);
        live = this.auth.open || p.subject === this.conn.principal.subject;
        if (live) {
          this.conn.secret = token;
          this.lapsed = false;
        }
      } catch {
        live = false;
      }
    }
    this.conn.send({ type: "auth_state", live });
  }

  /** Sends the fatal `error` with a 4000-range code, then closes with the same sentence and code. */
  fatal(error: string, code: number): void {
    if (this.ended) return;
    this.end();
    this.conn.send({ type: "error", error, fatal: true, code });
    this.conn.close(code, error);
  }

  /** The live session ended on a window (this socket's or another's): `session_expired`, then its close code. */
  expired(e: SessionExpiry): void {
    if (this.ended || this.conn.closed) return;
    this.end();
    this.conn.send({ type: "session_expired", reason: e.reason, message: e.message, seconds: e.seconds, code: e.code });
    this.conn.close(e.code, e.message);
  }

  private end(): void {
    this.ended = true;
    this.stop();
    this.onEnd();
  }

  private async tick(): Promise<void> {
    if (this.ended || this.checking || this.conn.closed) return;
    this.checking = true;
    try {
      if (this.conn.secret && !this.auth.open) {
        const status = await this.auth.status(this.conn.secret).catch(() => "live" as const);
        if (this.ended) return;
        if (status === "revoked") {
          this.fatal("The credential behind this session was revoked; sign in again.", CLOSE.revoked);
          return this.live?.revoked?.();
        }
        if (status === "expired" && !this.lapsed) {
          this.lapsed = true;
          this.conn.send({
            type: "auth_required",
            message: "The credential has aged out; send a fresh one with an auth message. The session continues.",
          });
        } else if (status === "live") this.lapsed = false;
      }
      // Activity anywhere on the live session (a typed turn, the other socket) keeps this one alive too.
      const session = this.live?.current() ?? null;
      const lastActivity = Math.max(this.lastActivity, session?.lastActivity ?? 0);
      const ran = windowRunOut(this.now(), { startedAt: this.startedAt, lastActivity }, this.policy);
      if (!ran) return;
      // The session ends, and with it every socket on it (this one included); without one, just this socket.
      if (session) this.live!.expire(session, ran);
      if (!this.ended) this.expired(ran);
    } finally {
      this.checking = false;
    }
  }
}

/** `max_session_length_seconds` from the upgrade query: an integer ≥ 0 (0 = no ceiling), else the default. */
export function maxLengthFrom(query: URLSearchParams, fallback: number | null): number | null {
  const raw = query.get("max_session_length_seconds");
  if (raw === null || !/^\d{1,9}$/.test(raw)) return fallback;
  const n = Number(raw);
  return n === 0 ? null : n;
}
