// One error type for both planes. Services throw it; one handler per app maps it
// into the envelope the spec assigns to the route (see envelope.ts).
import type { ErrorCode } from "../wire/error-codes.ts";

export type Envelope = "nested" | "unwrapped" | "flat" | "settings";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Force an envelope regardless of route (auth failures are always unwrapped). */
    readonly envelope?: Envelope,
    /** Extra top-level fields for the flat envelope (e.g. `interrupted`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Outbound failure (model, voice engine, store): retry and fallback read only these fields. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

export function errorBody(err: ApiError, envelope: Envelope): Record<string, unknown> {
  const shape = err.envelope ?? envelope;
  switch (shape) {
    case "unwrapped":
      return { code: err.code, message: err.message };
    case "flat":
      return { error: err.message, code: err.code, ...err.extra };
    case "settings":
      return { ok: false, error: { code: err.code, message: err.message } };
    default:
      return { error: { code: err.code, message: err.message } };
  }
}
