// Entry point: `bun portal/main.ts`. Prints one JSON line `{"listening":"http://HOST:PORT"}` once up.
import { readPortalEnv } from "./env.ts";
import { startPortal } from "./server.ts";

const portal = await startPortal(readPortalEnv());
console.log(JSON.stringify({ listening: portal.url }));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.error(JSON.stringify({ level: "info", msg: "portal stopping", signal }));
  await portal.stop().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
