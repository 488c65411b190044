// Implements: Endpoints `GET /auth/avatars/{id}/assets` (thin: parse, call, answer). The id
// pattern takes slashes too, so `a/b`, `..` and `%2F` reach the service and get its 404
// `avatar_not_found` rather than a bare route miss.
import { Hono } from "hono";
import { methodNotAllowed } from "../http/errors.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import type { AssetService } from "./service.ts";

export interface AssetRouteOptions {
  /** Base of the relative URLs the portal's own stores sign; null: the request's origin. */
  publicUrl: string | null;
}

export function assetRoutes(assets: AssetService, opts: AssetRouteOptions): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();

  app.get("/auth/avatars/:id{.+}/assets", async (c) => {
    const body = await assets.list(c.get("identity").email, c.req.param("id"));
    const base = opts.publicUrl ?? new URL(c.req.url).origin;
    for (const a of body.assets) a.url = new URL(a.url, base).href;
    c.header("cache-control", "no-store");
    return c.json(body, 200);
  });

  app.all("/auth/avatars/:id{.+}/assets", methodNotAllowed);
  return app;
}
