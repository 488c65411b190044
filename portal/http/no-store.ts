// Every `/auth/*` answer (a thrown error's too: the error handler has run when `next` returns)
// is about one signed-in person: no cache keeps it, and no browser guesses a type other than the
// one sent. A route that chose its own caching (signed media, immutable portrait bytes) keeps it.
import type { MiddlewareHandler } from "hono";

export function noStoreNoSniff(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control")) c.res.headers.set("Cache-Control", "no-store");
    if (!c.res.headers.has("x-content-type-options")) c.res.headers.set("X-Content-Type-Options", "nosniff");
  };
}
