// Hono context variables shared by the portal's feature routes.
import type { Identity } from "../identity/service.ts";

export type PortalHonoEnv = { Variables: { identity: Identity } };
