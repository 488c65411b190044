// Implements: the ElevenLabs failures of the voice engine seam (docs/architecture.md "Conventions in the code"), mapped once from
// the provider's statuses and `detail.status` codes (docs/providers.md 1.6, 1.7) to VoiceProviderError.
import { VoiceProviderError, type VoiceFailure } from "../engine.ts";

/** A VoiceProviderError that also keeps ElevenLabs' own `detail.status` ("" when none). */
export class ElevenLabsError extends VoiceProviderError {
  constructor(
    message: string,
    status: number,
    retryable: boolean,
    failure: VoiceFailure,
    /** e.g. "missing_permissions": a valid key without a scope, where typing a voice id still works. */
    readonly code = "",
  ) {
    super(message, status, retryable, failure);
  }
}

/** What the failed request was for: a 404 means an unknown voice only for speech. */
export type ElevenLabsCall = "speech" | "voices" | "key check";

interface Detail {
  code: string;
  message: string;
}

// 401 codes, all "the key cannot be used for this": bad, out of credits, blocked, or lacking a scope.
const KEY_MESSAGES: Record<string, string> = {
  invalid_api_key: "ElevenLabs rejected the API key as invalid",
  quota_exceeded: "ElevenLabs refused the request because the account's credits are used up",
  detected_unusual_activity: "ElevenLabs has disabled the account's free tier for unusual activity",
  missing_permissions: "ElevenLabs refused the request because the API key lacks a permission",
};

/** A refused HTTP answer (status ≥ 400), from its status and body text. */
export function httpFailure(call: ElevenLabsCall, status: number, bodyText: string, apiKey?: string, voiceId?: string): VoiceProviderError {
  const detail = readDetail(bodyText);
  const said = detail.message ? ` ("${clip(hideKey(detail.message, apiKey))}")` : "";
  const code = detail.code;
  if (status === 401 || /quota/.test(code)) {
    const lead =
      KEY_MESSAGES[code] ??
      (/quota/.test(code) ? KEY_MESSAGES.quota_exceeded : `ElevenLabs refused the API key (HTTP ${status}${code ? ` ${code}` : ""})`);
    return new ElevenLabsError(`${lead}${said}.`, status, false, "key_problem", code);
  }
  // ElevenLabs answers an unknown voice with 404 or 400 `voice_not_found`; the box reads a 404 as unknown_voice.
  if (code === "voice_not_found" || (call === "speech" && status === 404 && !routeMissing(bodyText))) {
    return new ElevenLabsError(`ElevenLabs has no voice ${quoteId(voiceId)}.`, 404, false, "refused", "voice_not_found");
  }
  if (status === 404) {
    // Reported as 502: the box's address for ElevenLabs is wrong, the caller asked for nothing unknown.
    return new ElevenLabsError(`ElevenLabs answered 404 to the ${call} request; is the base URL right?`, 502, false, "refused", code);
  }
  if (status === 429) {
    const why = code === "too_many_concurrent_requests" ? "the plan's limit of concurrent requests is reached" : "it is busy";
    return new ElevenLabsError(`ElevenLabs refused the ${call} request for now because ${why}${said}.`, 429, true, "refused", code);
  }
  if (status >= 500) {
    return new ElevenLabsError(`ElevenLabs failed the ${call} request with HTTP ${status}${said}.`, status, true, "refused", code);
  }
  const what = code ? ` ${code}` : "";
  return new ElevenLabsError(
    `ElevenLabs refused the ${call} request (HTTP ${status}${what})${said}.`,
    status,
    status === 408,
    "refused",
    code,
  );
}

/** No connection: refused, DNS, TLS... `cause` is what fetch threw. */
export function unreachable(baseUrl: string, cause: unknown): VoiceProviderError {
  return new VoiceProviderError(`ElevenLabs could not be reached at ${hostOf(baseUrl)} (${causeText(cause)}).`, 0, true, "unreachable");
}

/** No first byte within the limit, or a stream that went quiet. */
export function timedOut(call: ElevenLabsCall, ms: number, started: boolean): VoiceProviderError {
  const secs = `${Math.round(ms / 100) / 10} s`;
  const message = started
    ? `ElevenLabs stopped sending the ${call} answer for more than ${secs}.`
    : `ElevenLabs did not answer the ${call} request within ${secs}.`;
  return new VoiceProviderError(message, 0, true, "timed_out");
}

/** The connection closed before the answer was complete. */
export function streamCut(call: ElevenLabsCall): VoiceProviderError {
  return new VoiceProviderError(`ElevenLabs cut the ${call} stream off before it was complete.`, 502, true, "refused");
}

/** A 200 whose body is not what the protocol says. */
export function brokenAnswer(call: ElevenLabsCall, what: string): VoiceProviderError {
  return new VoiceProviderError(`ElevenLabs sent a ${call} answer that is not valid: ${what}.`, 502, false, "refused");
}

export function noKey(): VoiceProviderError {
  return new VoiceProviderError("No ElevenLabs API key is set.", 401, false, "key_problem");
}

/** Voice ids are checked before any request, so path characters never reach the URL. */
export const VOICE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function badVoiceId(voiceId: string): VoiceProviderError {
  return new VoiceProviderError(
    `ElevenLabs voice ids are 1 to 64 letters, digits, "-" or "_"; ${quoteId(voiceId)} is not one.`,
    404,
    false,
    "refused",
  );
}

/** `detail` is an object (`status`, else `code`), a string, or a FastAPI validation list. */
function readDetail(bodyText: string): Detail {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return { code: "", message: "" }; // an HTML page from a proxy says nothing useful
  }
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") return { code: "", message: detail };
  if (Array.isArray(detail)) {
    const first = detail[0] as { msg?: unknown; loc?: unknown } | undefined;
    const where = Array.isArray(first?.loc) ? ` at ${first.loc.join(".")}` : "";
    return { code: "validation_error", message: typeof first?.msg === "string" ? `${first.msg}${where}` : "" };
  }
  if (detail && typeof detail === "object") {
    const d = detail as { status?: unknown; code?: unknown; message?: unknown };
    const code = typeof d.status === "string" ? d.status : typeof d.code === "string" ? d.code : "";
    return { code, message: typeof d.message === "string" ? d.message : "" };
  }
  return { code: "", message: "" };
}

/** FastAPI's own answer for a path it does not serve (a wrong base URL), not an unknown voice. */
function routeMissing(bodyText: string): boolean {
  return /^\s*\{\s*"detail"\s*:\s*"Not Found"\s*\}\s*$/.test(bodyText);
}

function hideKey(text: string, apiKey?: string): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join("(key)") : text;
}

/** One line, bounded; a provider message must not turn a sentence into a page. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim().replace(/[.]+$/, "");
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function quoteId(id: string | undefined): string {
  if (id === undefined) return "(none)";
  const shown = id.length > 32 ? `${id.slice(0, 32)}…` : id;
  return JSON.stringify(shown);
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return "an invalid address";
  }
}

function causeText(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code) return code;
  return cause instanceof Error ? cause.message : String(cause);
}
