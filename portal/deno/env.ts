// The Deno entry's configuration: the portal's own variables, parsed by portal/env.ts (TypeBox,
// runtime-neutral: it is handed Deno.env.toObject()), plus what only this entry reads. Two
// differences from the Bun entry, both because an edge host runs no child process:
//   PORTAL_GPU_DRIVER   unset means `none` here (the Bun entry's default, `local`, spawns a box);
//                       `local` is refused at start, naming the Bun entry and the alternatives
//   PORTAL_STUDIO_SCRIPT the prebuilt studio script (portal/deno/studio-script.ts); default
//                       PORTAL_DATA_DIR/studio/app.js
import { join } from "node:path";
import { readPortalEnv, type PortalEnv } from "../env.ts";

export interface DenoPortalEnv extends PortalEnv {
  studioScript: string;
}

export const LOCAL_DRIVER_REFUSAL =
  "PORTAL_GPU_DRIVER=local starts the box as a child process of the portal, which the Deno (edge) entry does not do. " +
  "Run the Bun entry for a box on this machine (npm start, or node_modules/.bin/bun portal/main.ts), " +
  "or here use PORTAL_GPU_DRIVER=ec2 (the portal launches a GPU instance) or PORTAL_GPU_DRIVER=none with PORTAL_BOX_URL (a box running elsewhere).";

export function defaultStudioScriptPath(env: Record<string, string | undefined>): string {
  const named = env.PORTAL_STUDIO_SCRIPT?.trim();
  return named ? named : join(env.PORTAL_DATA_DIR?.trim() || "data", "studio", "app.js");
}

export function readDenoPortalEnv(raw: Record<string, string | undefined>): DenoPortalEnv {
  const driver = (raw.PORTAL_GPU_DRIVER ?? "").trim().toLowerCase();
  if (driver === "local") throw new Error(LOCAL_DRIVER_REFUSAL);
  const env = readPortalEnv({ ...raw, PORTAL_GPU_DRIVER: driver === "" ? "none" : driver });
  return { ...env, studioScript: defaultStudioScriptPath(raw) };
}
