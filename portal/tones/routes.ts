// Implements: Endpoints: `GET /auth/avatars/tones` (the emotion vocabulary; needs no box).
// No catch-all for other methods here: `DELETE /auth/avatars/tones` belongs to the avatar routes (404).
import { Hono } from "hono";
import { TONES } from "../../shared/wire/tones.ts";
import type { PortalHonoEnv } from "../http/types.ts";

export function toneRoutes(): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();
  app.get("/auth/avatars/tones", (c) => c.json({ tones: [...TONES] }, 200));
  return app;
}
