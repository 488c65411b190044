// Implements: one Cartesia request with the version and auth headers (docs/providers.md 2.1), a
// deadline for the first byte that every later read re-arms (a stalled stream times out too), and
// the caller's abort. Failures before the body leave here already mapped (cartesia-errors.ts).
import { badKey, garbage, httpFailure, missingKey, timedOut, unreachable, type CartesiaAsk } from "./cartesia-errors.ts";

export interface CartesiaConnection {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  version: string;
  fetch: typeof fetch;
}

/** A running request: its response, the deadline (armed around each read) and the cleanup. */
export interface OpenRequest {
  res: Response;
  /**
   * Why the request was stopped (the caller's abort, the deadline) as the error to throw; null
   * while it runs. `midway`: something already arrived, so a deadline is a stall.
   */
  stopped(midway?: boolean): unknown;
  /** Arms the deadline before a read. */
  touch(): void;
  /** Disarms it while the consumer holds a chunk (a slow consumer is not a stalled provider). */
  pause(): void;
  release(): void;
}

export function headersFor(conn: CartesiaConnection, accept: string, json: boolean): Record<string, string> {
  const h: Record<string, string> = {
    authorization: `Bearer ${conn.apiKey}`,
    "cartesia-version": conn.version,
    accept,
  };
  if (json) h["content-type"] = "application/json";
  return h;
}

export async function openRequest(
  conn: CartesiaConnection,
  ask: CartesiaAsk,
  path: string,
  init: { method: "GET" | "POST"; accept: string; body?: unknown },
  callerSignal?: AbortSignal,
): Promise<OpenRequest> {
  if (!conn.apiKey) throw missingKey();
  // A header cannot carry it, and fetch's complaint would quote it.
  if (!/^[\x21-\x7e]+$/.test(conn.apiKey)) throw badKey();
  if (callerSignal?.aborted) throw abortReason(callerSignal);
  const ctl = new AbortController();
  let fired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      ctl.abort();
    }, conn.timeoutMs);
  };
  const pause = () => clearTimeout(timer);
  const follow = () => ctl.abort(callerSignal?.reason);
  callerSignal?.addEventListener("abort", follow, { once: true });
  const release = () => {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", follow);
    ctl.abort();
  };
  const stopped = (midway = false) => {
    if (callerSignal?.aborted) return abortReason(callerSignal);
    if (fired) return timedOut(ask, conn.timeoutMs, midway);
    return null;
  };

  touch();
  let res: Response;
  // Called unbound: a bare global `fetch` must not get the connection object as `this`.
  const send = conn.fetch;
  try {
    res = await send(`${conn.baseUrl.replace(/\/+$/, "")}${path}`, {
      method: init.method,
      headers: headersFor(conn, init.accept, init.body !== undefined),
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: ctl.signal,
    });
  } catch (err) {
    release();
    throw stopped() ?? unreachable(conn.baseUrl, err, conn.apiKey);
  }
  if (!res.ok) {
    // The error body is read under the same deadline; a body that never comes still times out.
    touch();
    const text = await res.text().catch(() => "");
    const why = stopped();
    release();
    throw why ?? httpFailure(res.status, text, ask, conn.apiKey);
  }
  return { res, stopped, touch, pause, release };
}

/** The whole body as text under the request's deadline (small JSON answers). */
export async function readText(req: OpenRequest, ask: CartesiaAsk): Promise<string> {
  try {
    req.touch();
    return await req.res.text();
  } catch {
    throw req.stopped() ?? garbage(ask, "the connection closed before the answer was complete");
  } finally {
    req.release();
  }
}

/** The caller's abort is rethrown as the signal's reason, never mistaken for a provider fault. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
