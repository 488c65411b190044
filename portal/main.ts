// Entry point: `bun portal/main.ts`. Prints one JSON line `{"listening":"http://HOST:PORT"}` once up.
import { runPortalProcess } from "./entry-lifecycle.ts";
import { readPortalEnv } from "./env.ts";
import { startPortal } from "./server.ts";

const env = readPortalEnv();
await runPortalProcess(env.dbUrl, () => startPortal(env), {
  exit: (code) => process.exit(code),
  onSignal: (signal, handler) => void process.on(signal, handler),
});
