// Implements: Endpoints: `POST /auth/session/credential` (POST only, so no prefetch mints a credential).
import { Hono } from "hono";
import { methodNotAllowed } from "../http/errors.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import type { CredentialService } from "./service.ts";

export function credentialRoutes(credentials: CredentialService): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();
  app.post("/auth/session/credential", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ credential: await credentials.mint(c.get("identity").email) }, 201);
  });
  app.all("/auth/session/credential", methodNotAllowed);
  return app;
}
