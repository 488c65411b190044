// The HTTP side of the chatterbox engine: one request with the engine's timeout (first byte, then
// between body chunks), the caller's abort, and every failure mapped once to a VoiceProviderError
// (docs/providers.md §3.1: FastAPI `{"detail": ...}` errors, 404 unknown voice, 503 model not loaded).
import { VoiceProviderError } from "../engine.ts";

export interface ChatterboxHttpOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

export interface RequestInit {
  method: "GET" | "POST";
  json?: unknown;
  form?: FormData;
}

/** A 2xx answer whose body is read chunk by chunk, each within the timeout. */
export interface OpenAnswer {
  status: number;
  headers: Headers;
  chunks(): AsyncGenerator<Uint8Array>;
}

const MAX_ERROR_BODY = 64 * 1024;
const MAX_JSON_BODY = 8 * 1024 * 1024;

export class ChatterboxHttp {
  private readonly base: string;

  constructor(private readonly o: ChatterboxHttpOptions) {
    this.base = o.baseUrl.replace(/\/+$/, "");
  }

  /** Where the server is, for messages (no credentials, no path). */
  get where(): string {
    try {
      return new URL(this.base).host;
    } catch {
      return "its configured address";
    }
  }

  /** Sends `path`; resolves once a 2xx status arrives, else throws the mapped failure. */
  async open(what: string, path: string, init: RequestInit, signal?: AbortSignal): Promise<OpenAnswer> {
    if (signal?.aborted) throw abortReason(signal);
    const ctl = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => ((timedOut = true), ctl.abort()), this.o.timeoutMs);
    };
    const onAbort = () => ctl.abort(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const release = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (err: unknown, phase: "connect" | "read"): unknown => {
      release();
      if (signal?.aborted) return abortReason(signal);
      if (err instanceof VoiceProviderError) return err;
      const s = Math.round(this.o.timeoutMs / 100) / 10;
      if (timedOut) {
        const message =
          phase === "connect" ? `Chatterbox did not answer ${what} within ${s} s.` : `Chatterbox stopped sending ${what} for ${s} s.`;
        return new VoiceProviderError(message, 0, true, "timed_out");
      }
      if (phase === "read") return new VoiceProviderError(`Chatterbox broke off ${what} before it was complete.`, 502, true, "refused");
      return new VoiceProviderError(
        `Chatterbox could not be reached at ${this.where} for ${what} (${causeOf(err)}).`,
        0,
        true,
        "unreachable",
      );
    };

    arm();
    let res: Response;
    try {
      res = await this.o.fetch(this.base + path, {
        method: init.method,
        headers: this.headers(init),
        body: bodyOf(init),
        signal: ctl.signal,
      });
    } catch (err) {
      throw fail(err, "connect");
    }
    if (!res.ok) {
      let text = "";
      try {
        text = await readAll(res, MAX_ERROR_BODY, arm);
      } catch {
        // the status alone still says what happened
      }
      release();
      if (signal?.aborted) throw abortReason(signal);
      throw this.statusError(what, res.status, text);
    }
    let done = false;
    return {
      status: res.status,
      headers: res.headers,
      chunks: async function* () {
        const reader = res.body?.getReader();
        try {
          while (reader) {
            arm();
            let r: Awaited<ReturnType<typeof reader.read>>;
            try {
              r = await reader.read();
            } catch (err) {
              throw fail(err, "read");
            }
            if (r.done) break;
            if (r.value.length > 0) yield r.value;
          }
          done = true;
        } finally {
          release();
          // The consumer stopped early (or failed): close the connection instead of draining it.
          if (!done) ctl.abort();
        }
      },
    };
  }

  /** GET (or POST) answering JSON; a body that is not JSON is a refused, broken answer. */
  async json<T>(what: string, path: string, init: RequestInit = { method: "GET" }, signal?: AbortSignal): Promise<T> {
    const answer = await this.open(what, path, init, signal);
    const parts: Uint8Array[] = [];
    let size = 0;
    for await (const c of answer.chunks()) {
      size += c.length;
      if (size > MAX_JSON_BODY) throw garbage(what, "it is too large");
      parts.push(c);
    }
    try {
      return JSON.parse(Buffer.concat(parts).toString("utf8")) as T;
    } catch {
      throw garbage(what, "it is not JSON");
    }
  }

  private headers(init: RequestInit): Record<string, string> {
    const h: Record<string, string> = { accept: init.json !== undefined ? "audio/wav, application/json" : "application/json" };
    if (init.json !== undefined) h["content-type"] = "application/json";
    // devnen has no auth of its own; a key is for a proxy in front of it.
    if (this.o.apiKey) h.authorization = `Bearer ${this.o.apiKey}`;
    return h;
  }

  private statusError(what: string, status: number, body: string): VoiceProviderError {
    const detail = this.scrub(detailOf(body));
    if (status === 401 || status === 403) {
      const message = this.o.apiKey
        ? `Chatterbox refused the API key for ${what} (HTTP ${status}${detail ? `: ${detail}` : ""}).`
        : `Chatterbox asks for an API key for ${what} (HTTP ${status}) and none is set.`;
      return new VoiceProviderError(message, status, false, "key_problem");
    }
    const retryable = status === 429 || status >= 500;
    return new VoiceProviderError(
      `Chatterbox refused ${what} (HTTP ${status}${detail ? `: ${detail}` : ""}).`,
      status,
      retryable,
      "refused",
    );
  }

  private scrub(text: string): string {
    return this.o.apiKey ? text.split(this.o.apiKey).join("[key]") : text;
  }
}

/** A 2xx answer that is not what was asked for (an HTML page, a truncated WAV...). */
export function garbage(what: string, why: string): VoiceProviderError {
  return new VoiceProviderError(`Chatterbox answered ${what} with something unusable (${why}).`, 502, false, "refused");
}

/** FastAPI bodies: `{"detail": "..."}`, 422 `{"detail": [{"msg", "loc"}]}`, upload `{"errors": [...]}`. */
export function detailOf(body: string): string {
  let text = body.trim();
  try {
    const j = JSON.parse(body) as { detail?: unknown; errors?: { error?: unknown }[]; message?: unknown };
    if (typeof j.detail === "string") text = j.detail;
    else if (Array.isArray(j.detail)) {
      text = j.detail
        .map((d: { msg?: unknown; loc?: unknown }) => `${Array.isArray(d?.loc) ? d.loc.join(".") + ": " : ""}${String(d?.msg ?? "")}`)
        .join("; ");
    } else if (Array.isArray(j.errors) && j.errors.length > 0) text = j.errors.map((e) => String(e?.error ?? "")).join("; ");
    else if (typeof j.message === "string") text = j.message;
  } catch {
    if (/^\s*</.test(text)) text = ""; // an HTML error page says nothing readable
  }
  const one = text.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  return one.length > 300 ? `${one.slice(0, 297)}…` : one;
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

function bodyOf(init: RequestInit): string | FormData | undefined {
  if (init.form) return init.form;
  return init.json === undefined ? undefined : JSON.stringify(init.json);
}

async function readAll(res: Response, max: number, arm: () => void): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    arm();
    const r = await reader.read();
    if (r.done) break;
    parts.push(r.value);
    size += r.value.length;
    if (size >= max) {
      void reader.cancel().catch(() => {});
      break;
    }
  }
  return Buffer.concat(parts).toString("utf8");
}

/** The system's reason for a failed connection (ECONNREFUSED, ENOTFOUND...), never a URL with credentials. */
function causeOf(err: unknown): string {
  const e = err as { cause?: { code?: unknown; message?: unknown }; code?: unknown; message?: unknown };
  const code = e?.cause?.code ?? e?.code;
  if (typeof code === "string" && code) return code;
  const msg = String(e?.cause?.message ?? e?.message ?? err);
  return (
    msg
      .replace(/https?:\/\/[^\s]*/g, "")
      .trim()
      .slice(0, 120) || "no connection"
  );
}
