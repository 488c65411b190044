// Starts the portal on Bun: the runtime's own pieces (bun:sqlite reads, libSQL's Node client, a box
// spawned as a child process, the studio script bundled by Bun, node:crypto's HMAC) handed to the
// one wiring (portal/wiring.ts), then the Bun server that serves the core and relays box WebSockets.
import { deriveVoiceKeyMaterial } from "../shared/voice-keys/crypto.ts";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createPortalApp, type PortalApp } from "./app.ts";
import { openLedger } from "./consent/ledger-open.ts";
import { migratePortalDb } from "./db/migrate.ts";
import { bunSqliteReads } from "./db/bun-sqlite-reads.ts";
import { localDbPath } from "./db/local-file.ts";
import { openPortalDb } from "./db/open.ts";
import type { PortalEnv } from "./env.ts";
import { LocalGpuDriver } from "./gpu/drivers/local.ts";
import { NodeSigner } from "./identity/node-signer.ts";
import { createWebSocketProxy, isWebSocketUpgrade } from "./proxy/bun-websocket.ts";
import { boxArchiveEnv } from "./storage/open-store.ts";
import { bunSqliteOwnership } from "./assets/ownership-reads.ts";
import { bunSqliteLibrary } from "./avatars/library-reads.ts";
import { studioScriptProvider } from "./studio/bun-bundle.ts";
import { enforceGpuBudget, log, wirePortal, type PortalRuntime } from "./wiring.ts";

export interface RunningPortal {
  url: string;
  app: PortalApp;
  stop(): Promise<void>;
}

/** The key table URL as the box must see it: a relative `file:` path made absolute. */
function keyTableUrlForBox(dbUrl: string): string {
  const path = localDbPath(dbUrl);
  return path ? pathToFileURL(resolve(path)).href : dbUrl;
}

async function localDriver(env: PortalEnv, publicUrl: () => string, secret: string): Promise<LocalGpuDriver> {
  const voiceKeyMaterial = Buffer.from(await deriveVoiceKeyMaterial(secret)).toString("hex");
  const [command, ...args] = env.boxCommand;
  return new LocalGpuDriver({
    command,
    args,
    baseEnv: env.childEnv,
    boxEnv: {
      BOX_DATA_DIR: env.boxDataDir,
      BOX_KEY_TABLE_URL: keyTableUrlForBox(env.dbUrl),
      // The box opens the voice keys people save here (docs/api-notes.md "Voice settings"); never the secret itself.
      BOX_VOICE_KEY_MATERIAL: env.childEnv.BOX_VOICE_KEY_MATERIAL ?? voiceKeyMaterial,
      // The box archives portraits and clips into the portal's store (docs/api-notes.md "Archived media").
      ...boxArchiveEnv(env.storage, env.dataDir, env.childEnv),
      // Same origin through the portal; the box still answers CORS for the portal's own origin.
      get BOX_ALLOWED_ORIGINS() {
        return env.childEnv.BOX_ALLOWED_ORIGINS ?? new URL(publicUrl()).origin;
      },
    },
    onOutput: (line) => console.error(`[box] ${line}`),
  });
}

function bunRuntime(): PortalRuntime {
  const studioScript = studioScriptProvider(log);
  return {
    async openDb(env) {
      const client = await openPortalDb({ url: env.dbUrl, authToken: env.dbAuthToken ?? undefined });
      await migratePortalDb(client);
      return client;
    },
    openLedger: async (env, db) => openLedger(env, db),
    async fastReads(path) {
      const hot = bunSqliteReads(path);
      const ownership = bunSqliteOwnership(path);
      const library = bunSqliteLibrary(path);
      return { hot, ownership, library, close: () => (hot.close?.(), ownership.close?.(), library.close?.()) };
    },
    localDriver,
    studioScript,
    signer: (secret) => new NodeSigner(secret),
  };
}

export async function startPortal(env: PortalEnv): Promise<RunningPortal> {
  let listeningUrl = "";
  const publicUrl = () => env.publicUrl ?? listeningUrl;
  const wired = await wirePortal(env, bunRuntime(), publicUrl);
  const driver = wired.driver;

  let app: PortalApp | null = null;
  let ws: ReturnType<typeof createWebSocketProxy> | null = null;
  const server = Bun.serve({
    hostname: env.host,
    port: env.port,
    // Box routes hold NDJSON streams and sockets open; idle time is the box's business.
    idleTimeout: 0,
    fetch(req, srv) {
      if (!app || !ws) return new Response("starting", { status: 503 });
      if (isWebSocketUpgrade(req)) return ws.upgrade(req, srv as never);
      return app.fetch(req);
    },
    websocket: {
      open: (s) => ws!.websocket.open!(s as never),
      message: (s, m) => ws!.websocket.message!(s as never, m),
      close: (s, code, reason) => ws!.websocket.close!(s as never, code, reason),
    },
  });
  listeningUrl = `http://${env.host.includes(":") ? `[${env.host}]` : env.host}:${server.port}`;
  app = createPortalApp(wired.appOptions(publicUrl()));
  ws = createWebSocketProxy(app.services.boxUrl);

  if (env.gpuAutolaunch && driver.kind === "local" && !env.boxUrl) {
    // The portal is the always-on plane: a box that will not start is reported, not fatal.
    await driver
      .launch({ region: "local", instanceType: "local", maxRuntimeSeconds: env.gpuMaxRuntimeSeconds })
      .catch((err) => log("portal: the local box did not start (POST /auth/gpu/launch to retry)", err));
  }
  const stopBudget = enforceGpuBudget(app, (t) => t.unref?.());

  return {
    url: listeningUrl,
    app,
    async stop() {
      stopBudget();
      server.stop(true);
      await driver.close();
      wired.close();
    },
  };
}
