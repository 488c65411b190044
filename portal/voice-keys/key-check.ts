// Implements: Voice settings: "checked with the provider before saving". One cheap authenticated
// call per provider, as docs/providers.md describes it:
//   ElevenLabs 1.6: GET {base}/v1/user with `xi-api-key`; 401 `missing_permissions` is a valid key
//                   that lacks `user_read` (scoped keys), not a bad one.
//   Cartesia 2.7:   GET {base}/voices?limit=1 with `X-API-Key` and `Cartesia-Version`; 200 valid, 401 bad.
// Failures that say nothing about the key (timeout, unreachable, 429, 5xx) throw UpstreamError.
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { DEFAULT_CARTESIA_BASE_URL, DEFAULT_ELEVENLABS_BASE_URL, PROVIDER_LABELS } from "./providers.ts";
import type { HostedProvider } from "./schema.ts";

/** The version pipecat sends together with `X-API-Key`; the first with JSON error bodies. */
export const CARTESIA_VERSION = "2026-03-01";
export const DEFAULT_KEY_CHECK_TIMEOUT_MS = 8000;
/** Enough for any error body worth reading; the rest is dropped. */
const MAX_ERROR_BODY = 16 * 1024;

export type KeyCheckOutcome =
  | { accepted: true /** valid but scoped (ElevenLabs `missing_permissions`) */; restricted: boolean }
  | { accepted: false /** the provider's own code, when it gave a readable one */; reason: string | null };

export interface VoiceKeyChecker {
  check(provider: HostedProvider, key: string): Promise<KeyCheckOutcome>;
}

export interface ProviderKeyCheckOptions {
  elevenlabsBaseUrl?: string;
  cartesiaBaseUrl?: string;
  timeoutMs?: number;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");
const safeCode = (v: unknown): string | null => (typeof v === "string" && /^[A-Za-z0-9_.+-]{1,64}$/.test(v) ? v : null);

async function readSmall(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ERROR_BODY) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all.slice(0, MAX_ERROR_BODY));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** `detail.status`, falling back to `detail.code` (docs/providers.md 1.7); `detail` may be a string or list. */
function elevenLabsCode(body: unknown): string | null {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail !== "object" || detail === null || Array.isArray(detail)) return null;
  const d = detail as { status?: unknown; code?: unknown };
  return safeCode(d.status) ?? safeCode(d.code);
}

export class ProviderKeyChecker implements VoiceKeyChecker {
  private readonly bases: Record<HostedProvider, string>;
  private readonly timeoutMs: number;
  private readonly fetch: (input: string, init: RequestInit) => Promise<Response>;

  constructor(opts: ProviderKeyCheckOptions = {}) {
    this.bases = {
      elevenlabs: trimSlash(opts.elevenlabsBaseUrl ?? DEFAULT_ELEVENLABS_BASE_URL),
      cartesia: trimSlash(opts.cartesiaBaseUrl ?? DEFAULT_CARTESIA_BASE_URL),
    };
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_KEY_CHECK_TIMEOUT_MS;
    this.fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async check(provider: HostedProvider, key: string): Promise<KeyCheckOutcome> {
    const label = PROVIDER_LABELS[provider];
    const request: { url: string; headers: Record<string, string> } =
      provider === "elevenlabs"
        ? { url: `${this.bases.elevenlabs}/v1/user`, headers: { "xi-api-key": key, accept: "application/json" } }
        : {
            url: `${this.bases.cartesia}/voices?limit=1`,
            headers: { "X-API-Key": key, "Cartesia-Version": CARTESIA_VERSION, accept: "application/json" },
          };
    // One deadline for the whole exchange: a provider that sends headers and then stalls the body
    // is as stuck as one that never answers.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    try {
      const res = await this.fetch(request.url, { method: "GET", headers: request.headers, redirect: "manual", signal: abort.signal });
      if (res.status >= 200 && res.status < 300) {
        await res.body?.cancel().catch(() => undefined);
        return { accepted: true, restricted: false };
      }
      const text = await readSmall(res);
      if (res.status === 401 || res.status === 403) {
        if (provider === "elevenlabs") {
          const code = elevenLabsCode(parseJson(text));
          if (code === "missing_permissions") return { accepted: true, restricted: true };
          return { accepted: false, reason: code };
        }
        return { accepted: false, reason: safeCode((parseJson(text) as { error_code?: unknown } | null)?.error_code) };
      }
      const retryable = res.status === 429 || res.status >= 500;
      throw new UpstreamError(`${label} answered the key check with HTTP ${res.status}`, res.status || 502, retryable);
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      if (abort.signal.aborted) {
        throw new UpstreamError(`${label} did not answer the key check within ${formatSeconds(this.timeoutMs)}`, 504, true);
      }
      throw new UpstreamError(`${label} could not be reached for the key check`, 502, true);
    } finally {
      clearTimeout(timer);
    }
  }
}

const formatSeconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
