// Implements: the life of a portal process, the same on both runtime entries (portal/main.ts on
// Bun, portal/deno.ts on Deno): start, print the one JSON line `{"listening":"http://HOST:PORT"}`,
// and stop once on SIGTERM or SIGINT. A SQLite failure at start can only be the portal's one local
// database (the key table lives in it): one readable line (file, cause, what to do) instead of a
// driver stack.
import { resolve } from "node:path";
import { databaseUnusable } from "../shared/errors/database-unusable.ts";
import { localDbPath } from "./db/local-file.ts";
import { log } from "../shared/util/log.ts";

const FRESH = "the portal makes a fresh one at start, without the keys and accounts this one held";

/** What differs by runtime: how to exit and how to hear a signal. */
export interface ProcessHooks {
  exit(code: number): never;
  onSignal(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
}

export async function runPortalProcess(
  dbUrl: string,
  start: () => Promise<{ url: string; stop(): Promise<void> }>,
  hooks: ProcessHooks,
): Promise<void> {
  const portal = await start().catch((err: unknown) => {
    const path = localDbPath(dbUrl);
    const unusable = path ? databaseUnusable(err, resolve(path), "portal", FRESH) : null;
    if (!unusable) throw err;
    console.error(unusable.logLine());
    return hooks.exit(1);
  });
  console.log(JSON.stringify({ listening: portal.url }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("portal stopping", { signal });
    await portal.stop().catch(() => undefined);
    hooks.exit(0);
  };
  hooks.onSignal("SIGTERM", () => void stop("SIGTERM"));
  hooks.onSignal("SIGINT", () => void stop("SIGINT"));
}
