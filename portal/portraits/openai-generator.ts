// Implements: the OpenAI-compatible image provider for portraits (PORTAL_IMAGE_BASE_URL,
// PORTAL_IMAGE_API_KEY, PORTAL_IMAGE_MODEL): `POST {base}/v1/images/generations` with a bearer key,
// one 1024x1024 image back as base64 (`data[0].b64_json`). One deadline covers the whole exchange;
// the key never appears in an error sentence.
import { readCapped } from "../../shared/util/read-capped.ts";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import type { GeneratedPortrait, PortraitGenerator } from "./generator.ts";
import { sniffImage } from "./image-sniff.ts";

export const DEFAULT_IMAGE_MODEL = "gpt-image-1";
export const DEFAULT_IMAGE_TIMEOUT_MS = 60_000;
/** Largest image accepted from a provider. */
export const MAX_PORTRAIT_BYTES = 20 * 1024 * 1024;
/** Base64 of the largest image plus room for the JSON around it. */
const MAX_ANSWER_BYTES = Math.ceil((MAX_PORTRAIT_BYTES * 4) / 3) + 64 * 1024;

/** What the provider is asked for: a photo the box can make an avatar of, then the person described. */
export const PORTRAIT_INSTRUCTION =
  "A front-facing head-and-shoulders portrait photo of one person, centred, looking straight at the camera, " +
  "mouth closed, neutral expression unless described otherwise, even soft lighting, plain neutral background, " +
  "no text, no other people. The person: ";

export interface ImageProviderOptions {
  /** `https://api.openai.com` or `https://api.openai.com/v1` (the `/v1` is not doubled). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; none for a local server that wants none. */
  apiKey?: string | null;
  model?: string;
  timeoutMs?: number;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

export function generationsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  return /\/v1$/.test(base) ? `${base}/images/generations` : `${base}/v1/images/generations`;
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

export class OpenAiImageGenerator implements PortraitGenerator {
  readonly kind = "image_provider" as const;
  readonly model: string;
  private readonly url: string;
  private readonly host: string;
  private readonly timeoutMs: number;
  private readonly fetch: (input: string, init: RequestInit) => Promise<Response>;

  constructor(private readonly opts: ImageProviderOptions) {
    this.url = generationsUrl(opts.baseUrl);
    this.host = new URL(this.url).host;
    this.model = opts.model ?? DEFAULT_IMAGE_MODEL;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS;
    this.fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async generate(description: string): Promise<GeneratedPortrait> {
    const body: Record<string, unknown> = { model: this.model, prompt: PORTRAIT_INSTRUCTION + description, n: 1, size: "1024x1024" };
    // gpt-image models always answer base64 and refuse the parameter; the others need it to.
    if (!/^gpt-image/i.test(this.model)) body.response_format = "b64_json";
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    let status = 0;
    let text: string;
    try {
      const res = await this.fetch(this.url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        redirect: "manual",
        signal: abort.signal,
      });
      status = res.status;
      text = await readCappedText(res, MAX_ANSWER_BYTES);
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      if (abort.signal.aborted)
        throw new UpstreamError(
          `The image provider (${this.host}) did not answer within ${seconds(this.timeoutMs)}; try again later.`,
          503,
          true,
        );
      throw new UpstreamError(`The image provider (${this.host}) could not be reached; try again later.`, 503, true);
    } finally {
      clearTimeout(timer);
    }
    if (status < 200 || status > 299) {
      const said = this.scrub(providerMessage(text));
      const retry = status === 429 || status >= 500 ? " Try again later." : "";
      throw new UpstreamError(
        `The image provider answered ${status}${said ? `: ${said}` : "."}${retry}`,
        502,
        status === 429 || status >= 500,
      );
    }
    let b64: unknown;
    try {
      b64 = (JSON.parse(text) as { data?: { b64_json?: unknown }[] }).data?.[0]?.b64_json;
    } catch {
      b64 = undefined;
    }
    if (typeof b64 !== "string" || b64.length === 0) {
      throw new UpstreamError("The image provider's answer held no image (expected JSON with data[0].b64_json).", 502, false);
    }
    const bytes = decodeBase64(b64);
    if (!bytes) throw new UpstreamError("The image provider's data[0].b64_json is not valid base64.", 502, false);
    if (bytes.length > MAX_PORTRAIT_BYTES) throw new UpstreamError("The image provider's image is larger than 20 MB.", 502, false);
    const image = sniffImage(bytes);
    if (!image) throw new UpstreamError("The image provider answered with something that is not a PNG or JPEG image.", 502, false);
    return { ...image, bytes, seed: null, model: this.model };
  }

  /** A provider may echo the key (or a masked form of it) in its message: never pass it on. */
  private scrub(message: string): string {
    let out = message;
    const key = this.opts.apiKey;
    if (key && out.includes(key)) {
      // A short key would blank out ordinary words: then the provider's sentence is dropped whole.
      if (key.length < 8) return "";
      out = out.split(key).join("[key]");
    }
    return out.replace(/\b(sk|key)-[A-Za-z0-9_*.-]{6,}/g, "[key]");
  }
}

/** The provider's own sentence: OpenAI's `{error: {message}}`, a plain `{message}`/`{detail}`, or short text. */
function providerMessage(text: string): string {
  let said = "";
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    const e = body.error;
    said =
      typeof e === "string"
        ? e
        : typeof e?.message === "string"
          ? e.message
          : typeof body.message === "string"
            ? body.message
            : typeof body.detail === "string"
              ? body.detail
              : "";
  } catch {
    // Short plain text is passed on; HTML error pages and binary are not.
    said = !text.trimStart().startsWith("<") && /^[\x20-\x7e\s]*$/.test(text.slice(0, 200)) ? text : "";
  }
  const one = said
    .replace(/[\p{Cc}\u2028\u2029]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
}

/** The whole answer as text, refusing one larger than `cap` bytes. */
async function readCappedText(res: Response, cap: number): Promise<string> {
  const bytes = await readCapped(res, cap);
  if (!bytes) throw new UpstreamError("The image provider's answer is larger than a 20 MB image.", 502, false);
  return new TextDecoder().decode(bytes);
}

function decodeBase64(b64: string): Uint8Array | null {
  const clean = b64.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
  try {
    const bin = atob(clean);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}
