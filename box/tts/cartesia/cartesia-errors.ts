// Implements: Cartesia's failures as VoiceProviderError (docs/providers.md 2.8; docs/architecture.md "Conventions in the code"):
// every refusal, broken answer, timeout and lost connection is mapped here, once, to a catalogue
// state, the provider's status and `retryable`. Messages are one sentence naming Cartesia and
// never carry the API key.
import { VoiceProviderError } from "../engine.ts";

/** What was being asked, for the sentence: a voice's speech, the voices list, the key check. */
export type CartesiaAsk = { kind: "speech"; voiceId: string } | { kind: "voices" } | { kind: "key" };

const WHAT = { speech: "the speech request", voices: "the voices list", key: "the key check" } as const;

// Account-level exhaustion, whatever status it comes with (2.8 lists no code; these are the words used).
const QUOTA = /quota|credit|payment|billing|insufficient[_ ]?(funds|balance)|out of characters/i;

interface ErrorDetail {
  code: string;
  text: string;
}

/** JSON `{error_code,title,message}` (version ≥ 2026-03-01) or text `Title: Message` (older). */
export function errorDetail(body: string): ErrorDetail {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    if (json && typeof json === "object") {
      const title = typeof json.title === "string" ? json.title : "";
      const message = typeof json.message === "string" ? json.message : typeof json.error === "string" ? json.error : "";
      const code = typeof json.error_code === "string" ? json.error_code : "";
      const text = [title, message].filter(Boolean).join(": ");
      if (text || code) return { code, text: text || code };
    }
  } catch {
    // not JSON: the older plain-text shape
  }
  return { code: "", text: body };
}

/** One line, no key, no trailing full stop, at most 200 characters. */
export function clean(text: string, apiKey?: string): string {
  let t = text;
  if (apiKey && apiKey.length >= 4) t = t.split(apiKey).join("[key]");
  t = t
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!\s]+$/, "");
  return t.length > 200 ? `${t.slice(0, 197)}...` : t;
}

/** A non-2xx answer. */
export function httpFailure(status: number, body: string, ask: CartesiaAsk, apiKey?: string): VoiceProviderError {
  const detail = errorDetail(body);
  const said = clean(detail.text, apiKey);
  const tail = said ? ` (${status}: ${said})` : ` (${status})`;
  const exhausted = status === 402 || QUOTA.test(`${detail.code} ${detail.text}`);
  if (status === 401 || status === 403) {
    const why = exhausted ? "the account is out of credits" : "the API key was refused";
    return new VoiceProviderError(`Cartesia refused ${WHAT[ask.kind]}: ${why}${tail}.`, status, false, "key_problem");
  }
  if (exhausted && status >= 400 && status < 500) {
    return new VoiceProviderError(
      `Cartesia refused ${WHAT[ask.kind]}: the account is out of credits or over its quota${tail}.`,
      status,
      false,
      "key_problem",
    );
  }
  if (status === 404 && ask.kind === "speech") {
    return new VoiceProviderError(
      `Cartesia has no voice "${ask.voiceId}" on this account; it may have been deleted${tail}.`,
      404,
      false,
      "refused",
    );
  }
  if (status === 429) {
    return new VoiceProviderError(`Cartesia is busy: too many requests or streams at once on this account${tail}.`, 429, true, "refused");
  }
  if (status >= 500) {
    return new VoiceProviderError(`Cartesia had a server error answering ${WHAT[ask.kind]}${tail}.`, status, true, "refused");
  }
  return new VoiceProviderError(`Cartesia refused ${WHAT[ask.kind]}${tail}.`, status, status === 408, "refused");
}

/** No connection was made (refused, reset before an answer, DNS). */
export function unreachable(baseUrl: string, err: unknown, apiKey?: string): VoiceProviderError {
  const cause = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  return new VoiceProviderError(`Cartesia could not be reached at ${baseUrl} (${clean(cause, apiKey)}).`, 0, true, "unreachable");
}

/** No first byte, or the stream stalled, within `timeoutMs`. */
export function timedOut(ask: CartesiaAsk, timeoutMs: number, stalled: boolean): VoiceProviderError {
  const secs = Math.round(timeoutMs / 100) / 10;
  const how = stalled ? `stalled for ${secs} s in the middle of ${WHAT[ask.kind]}` : `did not answer ${WHAT[ask.kind]} within ${secs} s`;
  return new VoiceProviderError(`Cartesia ${how}.`, 0, true, "timed_out");
}

/** A 2xx answer that is not what the protocol says (not SSE, not JSON, no audio). */
export function garbage(ask: CartesiaAsk, what: string): VoiceProviderError {
  return new VoiceProviderError(`Cartesia sent an answer to ${WHAT[ask.kind]} that could not be read: ${what}.`, 502, false, "refused");
}

/** The SSE stream broke after it started: an error event or a closed connection. */
export function streamCut(audioMs: number, why: string, apiKey?: string): VoiceProviderError {
  return new VoiceProviderError(
    `Cartesia cut the speech stream after ${Math.round(audioMs)} ms of audio: ${clean(why, apiKey)}.`,
    502,
    true,
    "refused",
  );
}

/** An SSE error event (2.4): before any audio it counts as the HTTP refusal it names; after, as a cut stream. */
export function errorEvent(ev: Record<string, unknown>, ask: CartesiaAsk, audioMs: number, apiKey?: string): VoiceProviderError {
  const status = typeof ev.status_code === "number" && ev.status_code >= 400 && ev.status_code < 600 ? ev.status_code : 0;
  if (audioMs === 0 && status > 0) return httpFailure(status, JSON.stringify(ev), ask, apiKey);
  const detail = errorDetail(JSON.stringify(ev)).text;
  return streamCut(audioMs, `it sent an error event${status ? ` (${status})` : ""}: ${detail}`, apiKey);
}

export function missingKey(): VoiceProviderError {
  return new VoiceProviderError("Cartesia needs an API key and none is configured.", 0, false, "key_problem");
}

export function badKey(): VoiceProviderError {
  return new VoiceProviderError(
    "Cartesia cannot be sent this API key: it has spaces, control or non-ASCII characters.",
    0,
    false,
    "key_problem",
  );
}

export function invalidVoiceId(id: string): VoiceProviderError {
  const shown = id.length > 40 ? `${id.slice(0, 40)}...` : id;
  return new VoiceProviderError(
    `Cartesia has no voice ${JSON.stringify(shown)}: voice ids are 1 to 64 letters, digits, "-" or "_".`,
    404,
    false,
    "refused",
  );
}

export function noVoice(): VoiceProviderError {
  return new VoiceProviderError("Cartesia lists no voices on this account, and the call named none.", 404, false, "refused");
}
