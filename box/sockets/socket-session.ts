// Implements: Authentication points 6-7 on sockets (credential frozen per socket, renewed by
// `auth`, `auth_required` once per lapse, revoked → fatal error + 4004) and the session end
// rows for idle (4007) and maximum length (4008). Heartbeats and pauses are not activity.
import type { Authenticator } from "../auth/principal.ts";
import type { SocketConn } from "./conn.ts";

export interface SocketPolicy {
  idleSeconds: number;
  /** null: no ceiling. */
  maxSeconds: number | null;
  checkEveryMs: number;
}

export const CLOSE = { revoked: 4004, idle: 4007, maxLength: 4008 } as const;

export class SocketSession {
  private readonly startedAt: number;
  private lastActivity: number;
  private lapsed = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private checking = false;
  ended = false;

  constructor(
    private readonly conn: SocketConn,
    private readonly auth: Authenticator,
    private readonly policy: SocketPolicy,
    private readonly onEnd: () => void,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.startedAt = this.lastActivity = now();
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

  private expire(reason: "idle" | "max_length", seconds: number): void {
    if (this.ended) return;
    const code = reason === "idle" ? CLOSE.idle : CLOSE.maxLength;
    const message = reason === "idle" ? `The session sat idle for ${seconds} seconds and was released.` : `The session reached its allowed length of ${seconds} seconds.`;
    this.end();
    this.conn.send({ type: "session_expired", reason, message, seconds, code });
    this.conn.close(code, message);
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
        if (status === "revoked") return this.fatal("The credential behind this session was revoked; sign in again.", CLOSE.revoked);
        if (status === "expired" && !this.lapsed) {
          this.lapsed = true;
          this.conn.send({ type: "auth_required", message: "The credential has aged out; send a fresh one with an auth message. The session continues." });
        } else if (status === "live") this.lapsed = false;
      }
      const t = this.now();
      const { maxSeconds, idleSeconds } = this.policy;
      if (maxSeconds && t - this.startedAt >= maxSeconds * 1000) return this.expire("max_length", maxSeconds);
      if (t - this.lastActivity >= idleSeconds * 1000) return this.expire("idle", idleSeconds);
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
