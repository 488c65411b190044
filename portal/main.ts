// Entry point: `bun portal/main.ts`. Prints one JSON line `{"listening":"http://HOST:PORT"}` once up.
import { resolve } from "node:path";
import { databaseUnusable } from "../shared/errors/database-unusable.ts";
import { localDbPath } from "./db/local-file.ts";
import { readPortalEnv } from "./env.ts";
import { startPortal } from "./server.ts";

const FRESH = "the portal makes a fresh one at start, without the keys and accounts this one held";
const env = readPortalEnv();
// A SQLite failure at start can only be the portal's one local database (the key table lives in
// it): one readable line (file, cause, what to do) instead of a driver stack.
const portal = await startPortal(env).catch((err: unknown) => {
  const path = localDbPath(env.dbUrl);
  const unusable = path ? databaseUnusable(err, resolve(path), "portal", FRESH) : null;
  if (!unusable) throw err;
  console.error(unusable.logLine());
  process.exit(1);
});
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
