// Implements: Endpoints `/auth/avatars`, `/auth/avatars/public`, `/auth/avatars/{id}/visibility`,
// `DELETE /auth/avatars/{id}` (thin: parse, call, answer). Register after the other routes under
// `/auth/avatars/` (tones, publication terms and consent, assets): the last lines answer every
// other PUT, POST and DELETE below it as a missing avatar.
import { Hono } from "hono";
import { methodNotAllowed } from "../http/errors.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import { readBody } from "../http/read-body.ts";
import { avatarNotFound } from "./schema.ts";
import type { AvatarLibraryService } from "./service.ts";

export function avatarRoutes(library: AvatarLibraryService): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();

  app.get("/auth/avatars", async (c) =>
    c.body(await library.listBody(c.get("identity").email), 200, { "content-type": "application/json" }),
  );
  app.get("/auth/avatars/public", async (c) => c.json({ avatars: await library.listPublic(c.get("identity").email) }, 200));

  app.put("/auth/avatars/:id/visibility", async (c) => {
    const avatar = await library.setVisibility(c.get("identity").email, c.req.param("id"), await readBody(c));
    return c.json({ avatar }, 200);
  });

  // Before the catch-alls below: DELETE of `tones`, `public`, `publication-terms` is this route's 404.
  app.delete("/auth/avatars/:id", async (c) => c.json(await library.erase(c.get("identity").email, c.req.param("id")), 202));

  app.all("/auth/avatars", methodNotAllowed);
  app.all("/auth/avatars/public", methodNotAllowed);
  app.all("/auth/avatars/:id/visibility", methodNotAllowed);
  // Ids with a slash (more segments than any route): the same 404 as any id that is not yours.
  app.on(["PUT", "POST", "DELETE", "PATCH"], "/auth/avatars/*", () => {
    throw avatarNotFound();
  });
  return app;
}
