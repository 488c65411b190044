// Implements: Endpoints: `/auth/gpu/status|start|stop|launch|terminate|diagnostics`.
// The verbs are POST so no link prefetch can spend money; any other method is a 405, nothing changed.
import { Value } from "@sinclair/typebox/value";
import { Hono } from "hono";
import { ApiError } from "../../shared/errors/api-error.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { readBody, UNREADABLE } from "../http/read-body.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import { LaunchBody } from "../../shared/wire/gpu.ts";
import type { GpuService } from "./service.ts";

export function gpuRoutes(gpu: GpuService): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();
  const email = (c: { get(k: "identity"): { email: string } }) => c.get("identity").email;

  app.get("/auth/gpu/status", async (c) => c.json(await gpu.status(email(c)), 200));
  app.get("/auth/gpu/diagnostics", async (c) => c.json(await gpu.diagnostics(email(c)), 200));
  app.post("/auth/gpu/start", async (c) => c.json(await gpu.run(email(c), "start"), 200));
  app.post("/auth/gpu/stop", async (c) => c.json(await gpu.run(email(c), "stop"), 200));
  app.post("/auth/gpu/terminate", async (c) => c.json(await gpu.run(email(c), "terminate"), 200));
  app.post("/auth/gpu/launch", async (c) => {
    gpu.assertAdmin(email(c));
    const raw = await readBody(c);
    if (raw === UNREADABLE) throw new ApiError(400, "invalid_body", "The launch body must be JSON: {instance_type?, region?}.");
    const body = raw ?? {};
    if (!Value.Check(LaunchBody, body)) {
      throw new ApiError(400, "invalid_body", "The launch body must be JSON: {instance_type?: string, region?: string}.");
    }
    return c.json(await gpu.run(email(c), "launch", body), 201);
  });

  for (const verb of ["status", "diagnostics", "start", "stop", "terminate", "launch"]) app.all(`/auth/gpu/${verb}`, methodNotAllowed);
  return app;
}
