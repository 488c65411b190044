// Implements: Errors: Envelopes (all three shapes, plus the settings refusal's `ok: false`), read
// into ONE error class; and the public tool-error type of the client-library paragraph.
import type { ErrorCode } from "../wire/error-codes.ts";

/** Where the error was carried: an HTTP answer, a socket frame or close, or the library itself. */
export type ErrorSource = "http" | "frame" | "close" | "local";

/**
 * Every failure the library reports. Branch on `code` (stable), never on `message` (written for
 * a person). `status` is the HTTP status of the answer that carried it, 0 when none did (a
 * socket frame, a close code, a local condition); `closeCode` is set for socket closes.
 */
export class AvatarApiError extends Error {
  override readonly name = "AvatarApiError";
  constructor(
    readonly status: number,
    /** One of the service's codes (`ErrorCode`), or a code the library made (`http_502`, a close). */
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details: { source?: ErrorSource; closeCode?: number; body?: unknown; interrupted?: boolean; cause?: unknown } = {},
  ) {
    super(message);
  }

  get source(): ErrorSource {
    return this.details.source ?? (this.status ? "http" : "local");
  }

  get closeCode(): number | undefined {
    return this.details.closeCode;
  }

  /** The parsed body of the refusal (or its text when it was not JSON). */
  get body(): unknown {
    return this.details.body;
  }

  /** Reads a refused HTTP answer (any envelope, or a body that is not JSON: a proxy's page). */
  static async fromResponse(res: Response): Promise<AvatarApiError> {
    const text = await res.text().catch(() => "");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {}
    return AvatarApiError.fromBody(res.status, body, res.statusText);
  }

  static fromBody(status: number, body: unknown, statusText = ""): AvatarApiError {
    const parsed = parseErrorBody(body);
    if (parsed) return new AvatarApiError(status, parsed.code ?? fallbackCode(status), parsed.message, { source: "http", body });
    const text =
      typeof body === "string"
        ? body
            .replace(/<[^>]*>/g, " ")
            .replace(/\s+/g, " ")
            .trim()
            .slice(0, 200)
        : "";
    return new AvatarApiError(status, fallbackCode(status), text || statusText || `The service answered ${status}.`, {
      source: "http",
      body,
    });
  }
}

/** A code for an answer that named none (a flat `{error}` with no code, or a page that is not JSON). */
export function fallbackCode(status: number): string {
  return `http_${status}`;
}

/**
 * `{error: {code, message}}` (nested, also with `ok: false`), `{error: <string>, code?}` (flat) or
 * `{code, message}` (unwrapped). Null for anything else.
 */
export function parseErrorBody(body: unknown): { code: string | null; message: string } | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const e = b.error;
  if (typeof e === "object" && e !== null && !Array.isArray(e)) {
    const inner = e as Record<string, unknown>;
    if (typeof inner.code === "string" || typeof inner.message === "string") {
      return { code: str(inner.code), message: str(inner.message) ?? str(inner.code) ?? "" };
    }
  }
  if (typeof e === "string") return { code: str(b.code), message: e };
  if (typeof b.code === "string" && typeof b.message === "string") return { code: b.code, message: b.message };
  return null;
}

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

/** Tool errors longer than this are cut (spec Limits: tool error text). */
export const TOOL_ERROR_MAX_CHARS = 200;

/**
 * The public tool-error type: a handler that throws it has its message (cut to 200 characters)
 * sent to the model; any other failure sends the generic sentence "The tool failed.".
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(message: string) {
    super(message);
  }
}
