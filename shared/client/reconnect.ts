// Implements: WebSocket refusals (close codes 4001-4008 and whether to retry) and "anything else,
// including 1000, is an ordinary disconnect and reconnecting is right", as one table.

/** Why a socket ended, as an explicit list (not an opaque number). */
export type DisconnectReason =
  | "client" // the application closed it (close(), bye)
  | "no_speech_recognition" // 4001
  | "no_live_session" // 4002
  | "mic_slot_taken" // 4003
  | "credential_revoked" // 4004
  | "speech_recognition_failed" // 4005
  | "session_setup_failed" // 4006
  | "idle_timeout" // 4007
  | "max_duration" // 4008
  | "session_ended" // session_end: the persona ended the call
  | "credential_refused" // HTTP 401 at the upgrade
  | "connection_failed" // never opened (network, or a refusal a browser cannot see)
  | "server_closed"; // any other close: ordinary, reconnecting is right

export interface CloseVerdict {
  reason: DisconnectReason;
  retry: boolean;
  /** A floor under the backoff delay for this code, in ms. */
  minDelayMs: number;
  /** What to do, in words. */
  advice: string;
}

const TABLE: Record<number, CloseVerdict> = {
  4001: { reason: "no_speech_recognition", retry: false, minDelayMs: 0, advice: "The box has no speech recognition configured." },
  4002: { reason: "no_live_session", retry: true, minDelayMs: 500, advice: "Retrying until a live session exists (connect() first)." },
  4003: {
    reason: "mic_slot_taken",
    retry: true,
    minDelayMs: 1_000,
    advice: "Another socket holds the microphone; retrying until it closes.",
  },
  4004: { reason: "credential_revoked", retry: false, minDelayMs: 0, advice: "The credential was revoked; sign in again." },
  4005: { reason: "speech_recognition_failed", retry: false, minDelayMs: 0, advice: "Speech recognition would not start on the box." },
  4006: {
    reason: "session_setup_failed",
    retry: true,
    minDelayMs: 2_000,
    advice: "The box could not set the session up; retrying after a pause.",
  },
  4007: { reason: "idle_timeout", retry: false, minDelayMs: 0, advice: "The session sat idle and was released; go live again first." },
  4008: { reason: "max_duration", retry: false, minDelayMs: 0, advice: "The session reached its allowed length; go live again first." },
};

/** The verdict for a close code the box sent (the application's own close is decided before). */
export function closeVerdict(code: number): CloseVerdict {
  return TABLE[code] ?? { reason: "server_closed", retry: true, minDelayMs: 250, advice: "An ordinary disconnect; reconnecting." };
}

export interface BackoffOptions {
  /** Tries after a close before giving up (default 8). */
  attempts?: number;
  /** First delay, doubled per try (default 500 ms). */
  minDelayMs?: number;
  /** Ceiling of the delay (default 10 s). */
  maxDelayMs?: number;
}

/** Delay before try `attempt` (0-based): doubling, capped, with ±20% jitter so clients spread out. */
export function backoffDelay(attempt: number, opts: BackoffOptions = {}, floorMs = 0, random: () => number = Math.random): number {
  const min = opts.minDelayMs ?? 500;
  const max = opts.maxDelayMs ?? 10_000;
  const base = Math.min(max, Math.max(floorMs, min * 2 ** attempt));
  return Math.round(base * (0.8 + 0.4 * random()));
}
