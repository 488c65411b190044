// `npm start`: the service on embedded defaults. The portal (always-on plane) runs with the
// `local` GPU driver, which starts a box process on this machine and fronts it on one origin.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";

mkdirSync("data", { recursive: true });
const env = {
  PORTAL_HOST: process.env.PORTAL_HOST ?? "127.0.0.1",
  PORTAL_PORT: process.env.PORTAL_PORT ?? "8787",
  PORTAL_DB_URL: process.env.PORTAL_DB_URL ?? "file:data/portal.db",
  PORTAL_GPU_DRIVER: process.env.PORTAL_GPU_DRIVER ?? "local",
  PORTAL_MAIL_OUTBOX: process.env.PORTAL_MAIL_OUTBOX ?? "data/outbox",
  ...process.env,
};
const child = spawn("node_modules/.bin/bun", ["portal/main.ts"], { stdio: "inherit", env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
