// Implements: Endpoints `/auth/portraits*` (thin: parse, call, answer), and the owner's list
// `GET /auth/portraits` (this project's addition, docs/api-notes.md "Portal: Portraits"). The id pattern takes
// slashes too, so `a/b`, `%2F`, dots and unicode reach the service and get its 404
// `portrait_not_found` rather than a bare route miss.
import { Hono, type Context } from "hono";
import { methodNotAllowed } from "../http/errors.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import { readBody } from "../http/read-body.ts";
import { portraitNotFound } from "./schema.ts";
import type { PortraitService } from "./service.ts";

/** Written once, never replaced: a browser may keep it as long as it likes. */
const IMMUTABLE = "private, max-age=31536000, immutable";

export function portraitRoutes(portraits: PortraitService): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();
  const owner = (c: Context<PortalHonoEnv>) => c.get("identity").email;

  // The whole list, like every list route (no limit, cursor, offset or page is read).
  app.get("/auth/portraits", async (c) => c.json({ portraits: await portraits.list(owner(c)) }, 200));

  app.post("/auth/portraits", async (c) => c.json({ portrait: await portraits.create(owner(c), await readBody(c)) }, 201));

  app.post("/auth/portraits/:id{.+}/approve", async (c) =>
    c.json(await portraits.approve(owner(c), c.req.param("id"), await readBody(c)), 200),
  );

  app.post("/auth/portraits/:id{.+}/regenerate", async (c) =>
    c.json({ portrait: await portraits.regenerate(owner(c), c.req.param("id"), await readBody(c)) }, 201),
  );

  // Before the GET below, whose id takes slashes: `GET .../approve` is a wrong method, not an id.
  app.all("/auth/portraits/:id{.+}/approve", methodNotAllowed);
  app.all("/auth/portraits/:id{.+}/regenerate", methodNotAllowed);

  app.get("/auth/portraits/:id{.+}", async (c) => {
    const portrait = await portraits.open(owner(c), c.req.param("id"));
    const { sha256, content_type, size_bytes } = portrait.record;
    const etag = `"${sha256}"`;
    const headers: Record<string, string> = {
      "content-type": content_type,
      etag,
      "cache-control": IMMUTABLE,
      "x-portrait-sha256": sha256,
      "x-content-type-options": "nosniff",
    };
    if (matchesEtag(c.req.header("if-none-match"), etag)) return new Response(null, { status: 304, headers });
    if (c.req.method === "HEAD") return new Response(null, { status: 200, headers: { ...headers, "content-length": String(size_bytes) } });
    return new Response((await portrait.bytes()) as Uint8Array<ArrayBuffer>, { status: 200, headers });
  });

  app.all("/auth/portraits", methodNotAllowed);
  app.all("/auth/portraits/:id", methodNotAllowed);
  // Deeper paths: the same answer as a missing portrait.
  app.all("/auth/portraits/*", () => {
    throw portraitNotFound();
  });
  return app;
}

/** Does an If-None-Match value name this version? */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === "*" || header.split(",").some((v) => v.trim().replace(/^W\//, "") === etag);
}
