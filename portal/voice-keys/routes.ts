// Implements: Endpoints: `/auth/voice/*` (thin: parse, call, answer). Bodies: `PUT /auth/voice/key`
// `{provider, key}`, `PUT /auth/voice/engine` `{engine}`; every success answers 200 `{voice}`.
import { Hono } from "hono";
import { methodNotAllowed } from "../http/errors.ts";
import { readJsonObject } from "../http/read-body.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import type { VoiceService } from "./service.ts";

export function voiceRoutes(voice: VoiceService): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();

  app.get("/auth/voice/settings", async (c) => c.json({ voice: await voice.settings(c.get("identity").email) }, 200));

  app.put("/auth/voice/key", async (c) => {
    const body = await readJsonObject(c);
    return c.json({ voice: await voice.saveKey(c.get("identity").email, body) }, 200);
  });

  app.delete("/auth/voice/key/:provider", async (c) =>
    c.json({ voice: await voice.deleteKey(c.get("identity").email, c.req.param("provider")) }, 200),
  );

  app.put("/auth/voice/engine", async (c) => {
    const body = await readJsonObject(c);
    return c.json({ voice: await voice.chooseEngine(c.get("identity").email, body) }, 200);
  });

  app.all("/auth/voice/settings", methodNotAllowed);
  app.all("/auth/voice/key", methodNotAllowed);
  app.all("/auth/voice/key/:provider", methodNotAllowed);
  app.all("/auth/voice/engine", methodNotAllowed);
  return app;
}
