// HTTP plumbing for the ElevenLabs engine: one deadline per request that also bounds the wait
// between streamed reads, the caller's abort kept apart from a timeout, failures mapped once.
import { VoiceProviderError } from "../engine.ts";
import { brokenAnswer, httpFailure, streamCut, timedOut, unreachable, type ElevenLabsCall } from "./elevenlabs-errors.ts";

export type FetchLike = (input: URL, init: RequestInit) => Promise<Response>;

export interface ElevenLabsRequest {
  call: ElevenLabsCall;
  fetch: FetchLike;
  baseUrl: string;
  /** Starts with "/v1/" or "/v2/". */
  path: string;
  query?: Record<string, string | undefined>;
  apiKey: string;
  method: "GET" | "POST";
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Named in a 404 message. */
  voiceId?: string;
}

/**
 * Aborts the request when the caller aborts, on `release()`, or when `timeoutMs` passes without
 * `touch()`: before the first byte that is the first-byte limit, after it the stall limit.
 */
export class Deadline {
  private readonly ctl = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  timedOut = false;
  /** Some body bytes have arrived. */
  started = false;
  private readonly follow = () => this.ctl.abort(this.caller?.reason);

  constructor(
    readonly ms: number,
    private readonly caller?: AbortSignal,
  ) {
    if (caller?.aborted) this.follow();
    else caller?.addEventListener("abort", this.follow, { once: true });
    this.arm();
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  touch(): void {
    this.started = true;
    this.arm();
  }

  /** While the consumer holds a chunk, its own pace must not count as a stall; `touch()` resumes. */
  pause(): void {
    clearTimeout(this.timer);
  }

  release(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this.follow);
    this.ctl.abort();
  }

  /** Whatever a fetch or a body read threw, as the error the engine reports. */
  failure(call: ElevenLabsCall, err: unknown): unknown {
    if (this.caller?.aborted) return abortReason(this.caller);
    if (this.timedOut) return timedOut(call, this.ms, this.started);
    if (err instanceof VoiceProviderError) return err;
    return streamCut(call);
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.ctl.abort(new DOMException("ElevenLabs request timed out", "TimeoutError"));
    }, this.ms);
  }
}

/** Sends the request; resolves with a 2xx response, else throws the mapped failure. */
export async function send(req: ElevenLabsRequest, deadline: Deadline): Promise<Response> {
  const url = new URL(req.baseUrl.replace(/\/+$/, "") + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = { "xi-api-key": req.apiKey, accept: "application/json" };
  if (req.body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    const fetchFn = req.fetch;
    res = await fetchFn(url, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: deadline.signal,
    });
  } catch (err) {
    if (req.signal?.aborted || deadline.timedOut) throw deadline.failure(req.call, err);
    throw unreachable(req.baseUrl, err);
  }
  if (!res.ok) {
    let text = "";
    try {
      text = await res.text();
    } catch (err) {
      if (req.signal?.aborted || deadline.timedOut) throw deadline.failure(req.call, err);
    }
    throw httpFailure(req.call, res.status, text, req.apiKey, req.voiceId);
  }
  return res;
}

/** A whole JSON answer (voices, key check) within one deadline. */
export async function getJson(req: ElevenLabsRequest): Promise<unknown> {
  const deadline = new Deadline(req.timeoutMs, req.signal);
  try {
    const res = await send(req, deadline);
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw deadline.failure(req.call, err);
    }
    try {
      return JSON.parse(text);
    } catch {
      return undefined; // the caller names what it expected
    }
  } finally {
    deadline.release();
  }
}

/** The body split at "\n" (with-timestamps is one JSON object per line); `onBytes` on every read. */
export async function* bodyLines(body: ReadableStream<Uint8Array>, onBytes: () => void, maxLineChars: number): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      onBytes();
      buf += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) yield line;
      }
      if (buf.length > maxLineChars) throw brokenAnswer("speech", `a line longer than ${maxLineChars} characters`);
    }
    buf += decoder.decode();
    if (buf.trim()) yield buf.trim();
  } finally {
    reader.releaseLock();
  }
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
