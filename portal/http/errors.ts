// Implements: Errors (envelopes). The one place the portal turns a thrown error into a body:
// `/auth/*` uses the nested envelope; identity failures carry the unwrapped one themselves.
import type { Context } from "hono";
import { ApiError, errorBody } from "../../shared/errors/api-error.ts";
import { BUSY_RETRY_AFTER_SECONDS, databaseBusyError, isDatabaseBusy } from "../db/busy.ts";

export function toErrorResponse(err: unknown, c: Context, log: (msg: string, err: unknown) => void): Response {
  // Another process holding the database's write lock is an outside failure, not a bug: a sentence, and when to retry.
  if (isDatabaseBusy(err)) {
    // Not the error itself: drizzle's message carries the statement's parameters (addresses, ids).
    log(
      `portal: ${c.req.method} ${c.req.path} answered 503 database_busy: another process held the database's write lock past the busy timeout`,
      undefined,
    );
    c.header("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
    err = databaseBusyError();
  }
  if (err instanceof ApiError) {
    return c.json(errorBody(err, "nested"), err.status as 400);
  }
  log(`portal: unhandled error on ${c.req.method} ${c.req.path}`, err);
  return c.json(errorBody(new ApiError(500, "internal_error", "Something went wrong on our side."), "nested"), 500);
}

export function methodNotAllowed(): never {
  throw new ApiError(405, "method_not_allowed", "This route does not accept that method.");
}
