// Implements: the two raw OpenAPI documents on the portal's host: the portal's own at
// `GET /docs/portal.openapi.json`, and the box's at `GET /openapi.json`, forwarded to the running
// box like every other box path (a client library pointed at the one host reads the box's there).
import { Hono } from "hono";
import { ApiError } from "../../shared/errors/api-error.ts";
import { methodNotAllowed } from "../http/errors.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import { forwardToBox, type ForwardOptions } from "../proxy/forward.ts";
import { portalOpenApiDocument } from "./document.ts";

export const PORTAL_DOCUMENT_PATH = "/docs/portal.openapi.json";
export const BOX_DOCUMENT_PATH = "/openapi.json";

export interface OpenApiRouteOptions extends ForwardOptions {
  boxUrl: () => string | null;
}

export function openApiRoutes(opts: OpenApiRouteOptions): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();
  const body = JSON.stringify(portalOpenApiDocument());

  app.get(PORTAL_DOCUMENT_PATH, (c) =>
    c.body(body, 200, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    }),
  );
  app.get(BOX_DOCUMENT_PATH, (c) => {
    const base = opts.boxUrl();
    if (!base) throw new ApiError(503, "box_not_running", "No box is running. An administrator can start one (POST /auth/gpu/launch).");
    return forwardToBox(c.req.raw, base, opts);
  });
  app.all(PORTAL_DOCUMENT_PATH, methodNotAllowed);
  app.all(BOX_DOCUMENT_PATH, methodNotAllowed);
  return app;
}
