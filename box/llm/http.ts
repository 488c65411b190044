// Shared HTTP plumbing for the fetch-based providers (OpenAI-compatible, Anthropic).
import { abortReason, httpFailure, networkFailure, truncatedStream } from "./errors.ts";
import { UpstreamError } from "../../shared/errors/api-error.ts";

export type FetchFn = typeof fetch;

/** `base` may or may not already end in /v1 (Ollama and the OpenAI SDK convention include it). */
export function apiUrl(base: string, path: string): string {
  const trimmed = base.replace(/\/+$/, "");
  return (trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`) + path;
}

/** An internal abort that follows the caller's signal and also fires on early return (release). */
export function linkedAbort(signal: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
  const ctl = new AbortController();
  const follow = () => ctl.abort(signal?.reason);
  if (signal?.aborted) follow();
  else signal?.addEventListener("abort", follow, { once: true });
  return {
    signal: ctl.signal,
    release() {
      signal?.removeEventListener("abort", follow);
      ctl.abort();
    },
  };
}

export async function send(
  provider: string,
  fetchFn: FetchFn,
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: unknown },
  signal: AbortSignal | undefined,
  callerSignal?: AbortSignal,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetchFn(url, {
      method: init.method,
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal,
    });
  } catch (err) {
    if (callerSignal?.aborted) throw abortReason(callerSignal);
    throw networkFailure(provider, err);
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    throw httpFailure(provider, res.status, text);
  }
  return res;
}

/** A probe request: sent, judged by its status, and its body dropped at once. */
export async function touch(
  provider: string,
  fetchFn: FetchFn,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
): Promise<void> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  const res = await send(provider, fetchFn, url, { method: "POST", headers, body }, ctl.signal).finally(() => clearTimeout(timer));
  ctl.abort();
  await res.body?.cancel().catch(() => undefined);
}

/** A streamed model request: POST, then the provider's event parser over the body. */
export async function* streamFrom<E>(
  provider: string,
  fetchFn: FetchFn,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  callerSignal: AbortSignal | undefined,
  parse: (body: ReadableStream<Uint8Array>, signal: AbortSignal | undefined) => AsyncIterable<E>,
): AsyncGenerator<E> {
  const link = linkedAbort(callerSignal);
  try {
    const res = await send(provider, fetchFn, url, { method: "POST", headers, body }, link.signal, callerSignal);
    if (!res.body) throw truncatedStream(provider);
    yield* parse(res.body, callerSignal);
  } finally {
    link.release();
  }
}

/** Maps whatever a body read threw: the caller's abort stays an abort, the rest is a 502. */
export function readFailure(provider: string, err: unknown, callerSignal: AbortSignal | undefined): unknown {
  if (callerSignal?.aborted) return abortReason(callerSignal);
  if (err instanceof UpstreamError) return err;
  return networkFailure(provider, err);
}

/** Tool arguments arrive as JSON text; an empty string means no arguments. */
export function parseToolArgs(raw: string): { args: unknown; argsInvalid?: true } {
  if (raw.trim() === "") return { args: {} };
  try {
    return { args: JSON.parse(raw) };
  } catch {
    return { args: raw, argsInvalid: true };
  }
}
