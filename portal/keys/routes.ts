// Implements: Endpoints: `/auth/keys` (thin: parse, call, answer).
import { Hono } from "hono";
import { methodNotAllowed } from "../http/errors.ts";
import { readBody } from "../http/read-body.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import type { KeyService } from "./service.ts";

export function keyRoutes(keys: KeyService): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();

  app.get("/auth/keys", async (c) => c.json({ keys: await keys.list(c.get("identity").email) }, 200));

  app.post("/auth/keys", async (c) => {
    // An unreadable body has no name: the spec's answer is `invalid_name`.
    const body = await readBody(c);
    const name = typeof body === "object" && body !== null ? (body as { name?: unknown }).name : undefined;
    return c.json({ key: await keys.create(c.get("identity").email, name) }, 201);
  });

  app.delete("/auth/keys/:id", async (c) => {
    await keys.revoke(c.get("identity").email, c.req.param("id"));
    return c.json({ ok: true }, 200);
  });

  app.all("/auth/keys", methodNotAllowed);
  app.all("/auth/keys/:id", methodNotAllowed);
  return app;
}
