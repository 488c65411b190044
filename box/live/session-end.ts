// Implements: Voice session end (idle window, maximum length) and the close-code table (4007
// "released", 4008 "reached its allowed length"): why a live session ended, as every socket
// on it reports it.

export const CLOSE = { revoked: 4004, idle: 4007, maxLength: 4008 } as const;

export interface SessionWindows {
  /** Seconds without activity after which the live session is released. */
  idleSeconds: number;
  /** The box's ceiling on a live session's length; null: none. */
  maxSeconds: number | null;
  /** How often the windows (and sockets' credentials) are checked. */
  checkEveryMs: number;
}

/** A window ran out: the `session_expired` frame's fields and the close code that follows it. */
export interface SessionExpiry {
  reason: "idle" | "max_length";
  seconds: number;
  code: typeof CLOSE.idle | typeof CLOSE.maxLength;
  message: string;
}

export function sessionExpiry(reason: SessionExpiry["reason"], seconds: number): SessionExpiry {
  return reason === "idle"
    ? {
        reason,
        seconds,
        code: CLOSE.idle,
        message: `The session sat idle for ${seconds} seconds and was released; go live again to continue.`,
      }
    : {
        reason,
        seconds,
        code: CLOSE.maxLength,
        message: `The session reached its allowed length of ${seconds} seconds; go live again to continue.`,
      };
}

/** Which window, if any, has run out at `now` (the ceiling is checked first). */
export function windowRunOut(
  now: number,
  clock: { startedAt: number; lastActivity: number },
  windows: { idleSeconds: number; maxSeconds: number | null },
): SessionExpiry | null {
  if (windows.maxSeconds && now - clock.startedAt >= windows.maxSeconds * 1000) return sessionExpiry("max_length", windows.maxSeconds);
  if (now - clock.lastActivity >= windows.idleSeconds * 1000) return sessionExpiry("idle", windows.idleSeconds);
  return null;
}
