// Implements: Readiness (GET /api/chat/status): the live state of one upstream (a model provider,
// a voice engine) behind `llm_state` / `tts_state`, so readiness is never a snapshot taken at boot.
// States: `starting` while a check is in flight; `ready`; `unavailable` (not reached since the box
// started); `failing` (it worked, then `failuresToFail` calls in a row failed). While down it is
// re-checked with exponential backoff; any success (a call or a check) makes it `ready` again.
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { clause } from "./sentence.ts";

export type HealthState = "starting" | "ready" | "unavailable" | "failing";

export interface HealthTiming {
  /** Wait before the first re-check after a failure; doubles after each failed re-check. */
  retryMs: number;
  /** Longest wait between re-checks. */
  maxRetryMs: number;
  /** Consecutive failed calls that mark a ready upstream `failing`. */
  failuresToFail: number;
}

export const HEALTH_TIMING: HealthTiming = { retryMs: 2_000, maxRetryMs: 30_000, failuresToFail: 3 };

/** What a caller of the upstream reports; only outages (see isOutage) should reach `failed`. */
export interface CallOutcome {
  succeeded(): void;
  failed(err: unknown): void;
}

// Refusals of one request (bad body, unknown voice or model): the upstream itself answered fine.
const REQUEST_FAULTS = new Set([400, 404, 409, 413, 422]);

/** True when a failure says the upstream is down, not that one request was wrong or cancelled. */
export function isOutage(err: unknown): boolean {
  return err instanceof UpstreamError && !REQUEST_FAULTS.has(err.status);
}

export class UpstreamHealth implements CallOutcome {
  state: HealthState;
  private lastError = "";
  private failures = 0;
  private everReady: boolean;
  private delay: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private probing: Promise<void> | null = null;
  private closed = false;
  private readonly timing: HealthTiming;

  constructor(
    /** Names the upstream in details ("openai", "espeak-ng"). */
    readonly name: string,
    /** Resolves when the upstream answers; throws why not. */
    private readonly probe: () => Promise<void>,
    timing: Partial<HealthTiming> = {},
    initial: "starting" | "ready" = "starting",
  ) {
    this.timing = { ...HEALTH_TIMING, ...timing };
    this.delay = this.timing.retryMs;
    this.state = initial;
    this.everReady = initial === "ready";
  }

  /** Why it is not ready, as a clause a person reads; empty when ready. */
  get detail(): string {
    switch (this.state) {
      case "ready":
        return "";
      case "starting":
        return this.lastError ? `checking ${this.name} again; last error: ${this.lastError}` : `checking ${this.name}`;
      case "failing":
        return this.failures >= this.timing.failuresToFail
          ? `the last ${this.failures} calls to ${this.name} failed; last error: ${this.lastError}`
          : this.lastError;
      default:
        return this.lastError;
    }
  }

  /** Runs the probe now (joining one already in flight); never rejects. */
  check(): Promise<void> {
    if (this.probing) return this.probing;
    if (this.closed) return Promise.resolve();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.state = "starting";
    this.probing = this.probe()
      .then(
        // A call that succeeded meanwhile has already decided; a late check does not undo it.
        () => {
          if (this.state === "starting") this.markReady();
        },
        (err: unknown) => {
          if (this.state !== "starting") return;
          this.lastError = describe(err, this.name);
          this.state = this.everReady ? "failing" : "unavailable";
          this.retryLater();
        },
      )
      .finally(() => (this.probing = null));
    return this.probing;
  }

  succeeded(): void {
    this.markReady();
  }

  failed(err: unknown): void {
    this.failures++;
    this.lastError = describe(err, this.name);
    if (this.state === "ready" && this.failures >= this.timing.failuresToFail) {
      this.state = "failing";
      this.retryLater();
    }
  }

  /** Stops re-checking (box close); the state stays as it is. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private markReady(): void {
    this.state = "ready";
    this.everReady = true;
    this.failures = 0;
    this.lastError = "";
    this.delay = this.timing.retryMs;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private retryLater(): void {
    if (this.closed || this.timer) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, this.timing.maxRetryMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.check();
    }, wait);
    // A pending re-check never keeps the process alive.
    this.timer.unref?.();
  }
}

/** The error as a clause that names the upstream (provider errors usually already do). */
function describe(err: unknown, name: string): string {
  const text = clause(err instanceof Error ? err.message : String(err)) || "no reason given";
  return text.toLowerCase().includes(name.toLowerCase()) ? text : `${name}: ${text}`;
}
