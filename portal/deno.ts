// Entry point on Deno (the edge entry):
//   node_modules/.bin/deno run --node-modules-dir=manual --cached-only --no-remote --no-lock --no-prompt \
//     --allow-net --allow-env --allow-read --allow-sys=osRelease portal/deno.ts            (edge)
//     ... --allow-net --allow-env --allow-read --allow-write --allow-ffi --allow-sys ...   (local)
// (the flags and why: portal/deno/command.ts). Serves the same Web-standard core (portal/app.ts) as
// the Bun entry with Deno.serve, configured from the environment (portal/env.ts + portal/deno/env.ts),
// and prints the same one JSON line `{"listening":"http://HOST:PORT"}` once up.
//
// Everything is wired once (portal/wiring.ts: secret, mail, GPU driver, media store, portraits, the
// core's options); what this entry hands it differs from the Bun entry's (portal/server.ts):
//   database     @libsql/client for `file:` (native binding, a local run), @libsql/client/web for a
//                hosted libSQL (libsql:, https:, wss:): the edge. Same migrations.
//   fast reads   node:sqlite statements on a local file (Bun: bun:sqlite); libSQL on a remote URL
//   GPU          `none` (default here) and `ec2`; `local` spawns a box and is refused (Bun entry)
//   signer       the core's Web Crypto HMAC (Bun: node:crypto)
//   studio       the prebuilt script (portal/deno/studio-script.ts), a 503 with the build command
//                when it is missing
//   WebSockets   relayed with Deno.upgradeWebSocket (portal/deno/websocket.ts)
// An edge host has no writable disk: there PORTAL_SECRET, PORTAL_SMTP_URL and PORTAL_STORAGE=s3
// are set, and portraits come from PORTAL_IMAGE_BASE_URL (sharp's native code does not load).
import { createPortalApp, type PortalApp } from "./app.ts";
import { connectLedger } from "./consent/ledger-connect.ts";
import { libsqlClientMaker, migrateLedgerForDeno, migratePortalDbForDeno, openPortalDbForDeno } from "./deno/libsql.ts";
import { deno, type DenoApi } from "./deno/runtime.ts";
import { openSqliteReads } from "./deno/sqlite-reads.ts";
import { prebuiltStudioScript, type PrebuiltStudioScript } from "./deno/studio-script.ts";
import { readDenoPortalEnv, type DenoPortalEnv } from "./deno/env.ts";
import { createDenoWebSocketRelay, isWebSocketUpgrade } from "./deno/websocket.ts";
import { runPortalProcess } from "./entry-lifecycle.ts";
import { enforceGpuBudget, wirePortal, type PortalRuntime } from "./wiring.ts";
import { log } from "../shared/util/log.ts";

export interface RunningDenoPortal {
  url: string;
  app: PortalApp;
  stop(): Promise<void>;
}

const noClient = (): never => {
  throw new Error("the consent ledger lives in the portal database here (or is off): no client of its own");
};

function denoRuntime(studio: PrebuiltStudioScript): PortalRuntime {
  return {
    async openDb(env) {
      const client = await openPortalDbForDeno(env.dbUrl, env.dbAuthToken);
      await migratePortalDbForDeno(client);
      return client;
    },
    // The `PORTAL_LEDGER_URL` start contract, with the client chosen by URL.
    async openLedger(env, portalDb) {
      // Only a ledger database of its own needs a client (a local file: the native binding).
      const own = env.ledgerUrl !== null && env.ledgerUrl !== "off";
      const create = own ? await libsqlClientMaker(env.ledgerUrl!) : noClient;
      return connectLedger(env, portalDb, { create, migrate: migrateLedgerForDeno });
    },
    fastReads: (path) => openSqliteReads(path),
    studioScript: () => studio.script(),
    // No signer: the core's Web Crypto one stays. On Deno, node:crypto's createHmac (the Bun entry's
    // NodeSigner) measured about half the throughput of GET /auth/keys with a cookie.
  };
}

export async function startDenoPortal(env: DenoPortalEnv): Promise<RunningDenoPortal> {
  const D = deno();
  const studio = prebuiltStudioScript(env.studioScript, { readFile: (p) => D.readFile(p), stat: (p) => D.stat(p) });
  let listeningUrl = "";
  const wired = await wirePortal(env, denoRuntime(studio), () => env.publicUrl ?? listeningUrl);

  let app: PortalApp | null = null;
  let relay: ReturnType<typeof createDenoWebSocketRelay> | null = null;
  const server = D.serve({ hostname: env.host, port: env.port, onListen: () => {} }, async (req) => {
    if (!app || !relay) return new Response("starting", { status: 503 });
    if (isWebSocketUpgrade(req)) return relay(req);
    if (req.method === "GET" && new URL(req.url).pathname === "/studio/app.js" && !(await studio.available())) {
      return new Response(studio.missingBody(), {
        status: 503,
        headers: { "Content-Type": "text/javascript; charset=utf-8", "X-Content-Type-Options": "nosniff" },
      });
    }
    return app.fetch(req);
  });
  listeningUrl = `http://${env.host.includes(":") ? `[${env.host}]` : env.host}:${server.addr.port}`;
  app = createPortalApp(wired.appOptions(env.publicUrl ?? listeningUrl));
  relay = createDenoWebSocketRelay(app.services.boxUrl, (req, o) => D.upgradeWebSocket(req, o));
  const stopBudget = enforceGpuBudget(app, (t) => D.unrefTimer(t as unknown as number));

  return {
    url: listeningUrl,
    app,
    async stop() {
      stopBudget();
      // Open streams and sockets do not hold the stop up for long.
      await Promise.race([server.shutdown(), new Promise((r) => setTimeout(r, 2000))]);
      await wired.driver.close();
      wired.close();
    },
  };
}

if (import.meta.main) {
  // Annotated, so that TypeScript sees D.exit() end the flow.
  const D: DenoApi = deno();
  let env: DenoPortalEnv;
  try {
    env = readDenoPortalEnv(D.env.toObject());
  } catch (err) {
    log.error(`portal: ${err instanceof Error ? err.message : String(err)}`);
    D.exit(1);
  }
  await runPortalProcess(env.dbUrl, () => startDenoPortal(env), {
    exit: (code) => D.exit(code),
    onSignal: (signal, handler) => D.addSignalListener(signal, handler),
  });
}
