// Implements: the portal's one way to read a request body. The text is read once and parsed here;
// what a missing or unreadable body means stays the route's or the service's call (each route's
// own 400 code, the default for an optional body, or `invalid_name` for a key without one).
import type { Context } from "hono";
import { ApiError } from "../../shared/errors/api-error.ts";
import type { ErrorCode } from "../../shared/wire/error-codes.ts";

/** A body that was sent but is not JSON. */
export const UNREADABLE = Symbol("unreadable body");

/** The parsed JSON body; undefined when none was sent; `UNREADABLE` when it does not parse. */
export async function readBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return UNREADABLE;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON object body; anything else (none, not JSON, not an object) is a 400 with the given code. */
export async function readJsonObject(c: Context, code: ErrorCode = "invalid_body"): Promise<Record<string, unknown>> {
  const body = await readBody(c);
  if (!isObject(body)) throw new ApiError(400, code, "The request body must be a JSON object.");
  return body;
}
