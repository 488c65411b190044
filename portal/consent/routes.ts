// Implements: Endpoints `POST /auth/consent`, `GET /auth/avatars/publication-terms`,
// `POST /auth/avatars/{id}/publication-consent` (thin: parse, call, answer). Register before the
// avatar routes (their catch-all answers other POSTs under /auth/avatars/).
import { Hono } from "hono";
import { methodNotAllowed } from "../http/errors.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import { readBody } from "../http/read-body.ts";
import type { ConsentService } from "./service.ts";

export function consentRoutes(consent: ConsentService): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();

  app.post("/auth/consent", async (c) => c.json({ consent: await consent.attestUpload(await readBody(c)) }, 201));

  app.get("/auth/avatars/publication-terms", async (c) => c.json({ terms: await consent.currentTerms() }, 200));

  app.post("/auth/avatars/:id/publication-consent", async (c) => {
    const record = await consent.agreeToPublish(c.get("identity").email, c.req.param("id"), await readBody(c));
    return c.json({ publication_consent: record }, 201);
  });

  app.all("/auth/consent", methodNotAllowed);
  // Not DELETE: `DELETE /auth/avatars/publication-terms` is the avatar routes' 404.
  app.on(["POST", "PUT", "PATCH"], "/auth/avatars/publication-terms", methodNotAllowed);
  app.all("/auth/avatars/:id/publication-consent", methodNotAllowed);
  return app;
}
