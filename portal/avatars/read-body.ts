// Request bodies for the avatar and consent routes: the services decide what a missing or
// unreadable body means (each route's own 400 code, or the default for an optional body).
import type { Context } from "hono";

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
