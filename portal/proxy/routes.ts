// Implements: the one-host routing of box paths (`/api/*`, `/v1/*`, `/connect`, `/offer`,
// `/disconnect`, `/conversations*`, `/health`) to the running box.
import { Hono } from "hono";
import { ApiError } from "../../shared/errors/api-error.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import { BOX_PATH_PATTERNS, forwardToBox, type ForwardOptions } from "./forward.ts";

export interface ProxyRouteOptions extends ForwardOptions {
  /** Base URL of the box to forward to, or null when none runs. */
  boxUrl: () => string | null;
}

export function proxyRoutes(opts: ProxyRouteOptions): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();
  for (const pattern of BOX_PATH_PATTERNS) {
    app.all(pattern, async (c) => {
      const base = opts.boxUrl();
      if (!base) throw new ApiError(503, "box_not_running", "No box is running. An administrator can start one (POST /auth/gpu/launch).");
      if ((c.req.header("upgrade") ?? "").toLowerCase() === "websocket") {
        // The runtime entry proxies WebSocket upgrades itself; reaching here means it cannot.
        throw new ApiError(
          501,
          "websocket_proxy_unavailable",
          "This runtime does not forward WebSocket upgrades; connect to the box directly.",
        );
      }
      return forwardToBox(c.req.raw, base, opts);
    });
  }
  return app;
}
