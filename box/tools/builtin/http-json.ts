// GET-a-JSON-document for the API-backed built-ins (weather, Wikipedia): deadline, byte cap, and every
// failure turned into a ToolError sentence naming the service, never a raw exception.
import { readCapped } from "../../../shared/util/read-capped.ts";
import { ToolError } from "./types.ts";

export interface JsonGetOptions {
  /** Service name used in messages, e.g. "The weather service". */
  service: string;
  timeoutMs: number;
  userAgent: string;
  signal: AbortSignal;
  maxBytes?: number;
  fetch?: typeof fetch;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;

/** Resolves for any HTTP status (the caller decides what 404 means); throws ToolError otherwise. */
export async function getJson(url: string, options: JsonGetOptions): Promise<JsonAnswer> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  try {
    const res = await (options.fetch ?? fetch)(url, {
      signal,
      headers: { accept: "application/json", "user-agent": options.userAgent },
      redirect: "follow",
    });
    const text = await readText(res, maxBytes);
    if (text === undefined) throw new ToolError(`${options.service} sent an answer that was too large.`);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      if (res.ok) throw new ToolError(`${options.service} sent an answer that could not be read.`, text.slice(0, 200));
      body = text;
    }
    return { status: res.status, body };
  } catch (err) {
    if (err instanceof ToolError) throw err;
    const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    if (options.signal.aborted) throw new ToolError("The tool call was cancelled.", detail);
    if (timeout.aborted) throw new ToolError(`${options.service} did not answer in time.`, detail);
    throw new ToolError(`${options.service} could not be reached.`, detail);
  }
}

async function readText(res: Response, maxBytes: number): Promise<string | undefined> {
  const bytes = await readCapped(res, maxBytes);
  return bytes ? new TextDecoder().decode(bytes) : undefined;
}

/** Strips trailing slashes so `${base}/v1/...` never doubles them. */
export function baseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}
