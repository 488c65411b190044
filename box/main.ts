// Entry point: `bun box/main.ts`. Prints one JSON line `{"listening":"http://HOST:PORT"}` once up.
import { readBoxEnv, startupRefusal } from "./env.ts";
import { bootBox } from "./boot.ts";
import { DatabaseUnusable } from "../shared/errors/database-unusable.ts";
import { log, setLogLevel } from "../shared/util/log.ts";

const env = readBoxEnv();
setLogLevel(env.logLevel);
const refusal = startupRefusal(env);
if (refusal) {
  console.error(refusal);
  process.exit(2);
}

// Last line of defence: a socket or system-call error somewhere in a library must not end every
// session on the box. Anything else is a bug: log it and exit so the supervisor restarts us.
process.on("uncaughtException", (err: Error & { syscall?: string; code?: string }) => {
  log.error("uncaught exception", { error: String(err?.stack ?? err), code: err?.code });
  if (!err?.syscall) process.exit(1);
});
process.on("unhandledRejection", (reason) => {
  log.error("unhandled rejection", { error: String((reason as Error)?.stack ?? reason) });
});

// An unusable box.db is the operator's to fix: one readable line (file, cause, what to do), no stack.
const box = await bootBox(env).catch((err: unknown) => {
  if (!(err instanceof DatabaseUnusable)) throw err;
  console.error(err.logLine());
  process.exit(1);
});
box.app.listen({ hostname: env.host, port: env.port });
const port = box.app.server?.port ?? env.port;
console.log(JSON.stringify({ listening: `http://${env.host}:${port}` }));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("box stopping", { signal });
  await box.app.stop(true).catch(() => undefined);
  await box.close().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
