// Reads a JSON request body with a byte limit and a nesting limit, before JSON.parse sees it.
import { ApiError, type Envelope } from "../../shared/errors/api-error.ts";

export interface JsonBodyOptions {
  limitBytes?: number;
  maxDepth?: number;
  /** Treat an empty body as `{}` (routes whose body is optional). */
  emptyAsObject?: boolean;
  envelope?: Envelope;
}

/** Deepest bracket nesting outside of strings: O(n), no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash escapes the next char
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

export async function readJsonObject(request: Request, opts: JsonBodyOptions = {}): Promise<Record<string, unknown>> {
  const limit = opts.limitBytes ?? 1024 * 1024;
  const env = opts.envelope;
  const tooLarge = () => new ApiError(413, "body_too_large", `The request body is over ${Math.round(limit / 1024)} KB.`, env);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge();
  const buf = await request.arrayBuffer();
  if (buf.byteLength > limit) throw tooLarge();
  const text = new TextDecoder().decode(buf);
  if (text.trim() === "") {
    if (opts.emptyAsObject) return {};
    throw new ApiError(400, "invalid_body", "The request body must be a JSON object.", env);
  }
  if (jsonDepth(text) > (opts.maxDepth ?? 32)) {
    throw new ApiError(400, "invalid_body", "The request body nests too deeply.", env);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, "invalid_body", "The request body is not valid JSON.", env);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError(400, "invalid_body", "The request body must be a JSON object.", env);
  }
  return value as Record<string, unknown>;
}
