// One mapping from thrown errors to the envelope the spec assigns to each route.
import { ApiError, errorBody, UpstreamError, type Envelope } from "../../shared/errors/api-error.ts";
import { json } from "./route.ts";
import { log } from "../../shared/util/log.ts";

export function errorResponse(err: unknown, envelope: Envelope): Response {
  if (err instanceof ApiError) return json(errorBody(err, envelope), err.status);
  // An outside engine that failed is 502 whatever it answered us (spec "Status codes").
  if (err instanceof UpstreamError) return json(errorBody(new ApiError(502, "upstream_failed", err.message), envelope), 502);
  log.error("unhandled route error", { error: String((err as Error)?.stack ?? err) });
  return json(errorBody(new ApiError(500, "internal_error", "The box hit an unexpected error."), envelope), 500);
}
