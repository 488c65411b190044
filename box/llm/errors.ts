// Implements: outbound failures carry `status` and `retryable` (docs/architecture.md "Conventions in the code"); retry and
// fallback read only those two fields, so every provider failure is mapped here.
import { UpstreamError } from "../../shared/errors/api-error.ts";

/** 429, 408 and every 5xx (Anthropic's 529 "overloaded" included) are worth retrying. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** A refused HTTP response, before any streamed byte. */
export function httpFailure(provider: string, status: number, body: string): UpstreamError {
  return new UpstreamError(`${provider} answered ${status}: ${messageFromBody(body)}`, status, isRetryableStatus(status));
}

/** Connection refused, reset, DNS...: no answer at all, reported as a retryable 502. */
export function networkFailure(provider: string, err: unknown): UpstreamError {
  const cause = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  return new UpstreamError(`${provider} unreachable: ${cause}`, 502, true);
}

/** The stream stopped before the provider said the message was complete. */
export function truncatedStream(provider: string): UpstreamError {
  return new UpstreamError(`${provider} stream ended before the reply was complete`, 502, true);
}

// Anthropic error `type`s (also used by some OpenAI-compatible servers) and their HTTP statuses.
const TYPE_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  server_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** An error event inside a 200 stream; unknown kinds are treated as a retryable server fault. */
export function streamFailure(
  provider: string,
  error: { type?: unknown; code?: unknown; status?: unknown; message?: unknown },
): UpstreamError {
  const numeric = [error.status, error.code].find((v) => typeof v === "number" && v >= 400 && v < 600) as number | undefined;
  const status = numeric ?? TYPE_STATUS[String(error.type ?? error.code ?? "")] ?? 502;
  const message = typeof error.message === "string" ? error.message : "stream error";
  return new UpstreamError(`${provider} stream error: ${message}`, status, isRetryableStatus(status));
}

/** The caller's abort: rethrown as the signal's reason so it is never mistaken for a retryable fault. */
export function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

function messageFromBody(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof json.error === "string") return json.error;
    if (json.error?.message) return json.error.message;
    if (json.message) return json.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.slice(0, 300) || "(empty body)";
}
