// Starts the portal on Bun from a validated environment: database and migrations, secret, mail
// transport, GPU driver, the Hono core, and the Bun server that also relays box WebSockets.
import { deriveVoiceKeyMaterial } from "../shared/voice-keys/crypto.ts";
import { lookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ec2DriverOptions } from "./gpu/drivers/ec2-options.ts";
import { createPortalApp, type PortalApp } from "./app.ts";
import { openLedger } from "./consent/ledger-open.ts";
import { migratePortalDb } from "./db/migrate.ts";
import { bunSqliteReads } from "./db/bun-sqlite-reads.ts";
import { localDbPath } from "./db/local-file.ts";
import { openPortalDb } from "./db/open.ts";
import type { PortalEnv } from "./env.ts";
import type { GpuDriver } from "./gpu/drivers/driver.ts";
import { LocalGpuDriver } from "./gpu/drivers/local.ts";
import { NodeSigner } from "./identity/node-signer.ts";
import { NoGpuDriver } from "./gpu/drivers/none.ts";
import { createWebSocketProxy, isWebSocketUpgrade } from "./proxy/bun-websocket.ts";
import { loadOrCreateSecret } from "./secret-file.ts";
import type { Mailer } from "./sign-in/mailer.ts";
import { OutboxMailer } from "./sign-in/outbox-mailer.ts";
import { SmtpMailer } from "./sign-in/smtp-mailer.ts";
import { assetStoreFactory, boxArchiveEnv } from "./storage/open-store.ts";
import { bunSqliteOwnership } from "./assets/ownership-reads.ts";
import { sharpRasterise } from "./portraits/sharp-rasterise.ts";
import { bunSqliteLibrary } from "./avatars/library-reads.ts";
import { studioScriptProvider } from "./studio/bun-bundle.ts";
import { signInLinkIn } from "./sign-in/outbox-mailer.ts";

export interface RunningPortal {
  url: string;
  app: PortalApp;
  stop(): Promise<void>;
}

const log = (msg: string, err?: unknown) => console.error(err === undefined ? msg : `${msg}: ${err instanceof Error ? err.message : String(err)}`);

/** The key table URL as the box must see it: a relative `file:` path made absolute. */
function keyTableUrlForBox(dbUrl: string): string {
  const path = localDbPath(dbUrl);
  return path ? pathToFileURL(resolve(path)).href : dbUrl;
}

async function createDriver(env: PortalEnv, publicUrl: () => string, voiceKeyMaterial: string): Promise<GpuDriver> {
  if (env.gpuDriver === "none") return new NoGpuDriver();
  if (env.gpuDriver === "ec2") {
    // Loaded only when used: the AWS SDK is large.
    const { Ec2GpuDriver } = await import("./gpu/drivers/ec2.ts");
    return new Ec2GpuDriver(ec2DriverOptions(env, env.ec2.userDataFile ? readFileSync(env.ec2.userDataFile, "utf8") : undefined));
  }
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

/** Where sign-in mails are written when no mail server is configured; null with SMTP. */
function outboxFolder(env: PortalEnv): string | null {
  return env.smtpUrl ? null : (env.mailOutbox ?? join(env.dataDir, "outbox"));
}

function createMailer(env: PortalEnv): Mailer {
  if (env.smtpUrl) return new SmtpMailer(env.smtpUrl, env.mailFrom);
  const folder = env.mailOutbox ?? join(env.dataDir, "outbox");
  // No mail server (npm start): the link is printed too, so a newcomer can sign in from the console.
  return new OutboxMailer(folder, env.mailFrom, (path, mail) =>
    log(`portal: sign-in mail for ${mail.to} written to ${path}; sign-in link: ${signInLinkIn(mail.text) ?? "(none found in the mail)"}`),
  );
}

export async function startPortal(env: PortalEnv): Promise<RunningPortal> {
  const client = await openPortalDb({ url: env.dbUrl, authToken: env.dbAuthToken ?? undefined });
  await migratePortalDb(client);
  const ledger = openLedger(env, client);
  const secret = env.secret ?? loadOrCreateSecret(env.dataDir);
  const dbPath = localDbPath(env.dbUrl);
  const reads = dbPath ? bunSqliteReads(dbPath) : null;
  const assetOwnership = dbPath ? bunSqliteOwnership(dbPath) : null;
  const libraryReads = dbPath ? bunSqliteLibrary(dbPath) : null;
  let listeningUrl = "";
  const publicUrl = () => env.publicUrl ?? listeningUrl;
  const driver = await createDriver(env, publicUrl, Buffer.from(await deriveVoiceKeyMaterial(secret)).toString("hex"));
  const assetStore = await assetStoreFactory(env.storage, env.dataDir);

  // The studio's browser script: bundled by Bun in the background now, served once built.
  const studioScript = studioScriptProvider(log);
  void studioScript().catch((err) => log("portal: the studio script did not build (GET /studio/app.js retries)", err));

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

  app = createPortalApp({
    assetStore,
    assetOwnership,
    libraryReads,
    db: client,
    secret,
    signer: new NodeSigner(secret),
    reads,
    mailer: createMailer(env),
    oidc: env.oidc ? { issuer: env.oidc.issuer, audience: env.oidc.audience, jwks: env.oidc.jwksUrl } : null,
    gpu: driver,
    adminEmails: env.adminEmails,
    ownerEmails: env.ownerEmails,
    gpuMaxRuntimeSeconds: env.gpuMaxRuntimeSeconds,
    gpuHourlyCostUsd: env.gpuHourlyCostUsd,
    boxUrl: env.boxUrl,
    publicUrl: publicUrl(),
    sessionTtlSeconds: env.sessionTtlSeconds,
    credentialTtlSeconds: env.credentialTtlSeconds,
    ledger: ledger.connection,
    voice: { elevenlabsBaseUrl: env.elevenlabsBaseUrl, cartesiaBaseUrl: env.cartesiaBaseUrl },
    // Portraits: drawn here (sharp rasterises the SVG) unless PORTAL_IMAGE_BASE_URL names a provider.
    portraits: { rasterise: sharpRasterise, imageProvider: env.imageProvider },
    studio: { script: studioScript, outbox: outboxFolder(env) },
    resolveHostname: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
    log,
  });
  ws = createWebSocketProxy(app.services.boxUrl);

  if (env.gpuAutolaunch && driver.kind === "local" && !env.boxUrl) {
    // The portal is the always-on plane: a box that will not start is reported, not fatal.
    await driver
      .launch({ region: "local", instanceType: "local", maxRuntimeSeconds: env.gpuMaxRuntimeSeconds })
      .catch((err) => log("portal: the local box did not start (POST /auth/gpu/launch to retry)", err));
  }
  // The runtime budget is enforced even when nobody looks at the status.
  const gpu = app.services.gpu;
  const budget = setInterval(() => void gpu.enforce().catch((err) => log("portal: GPU budget check failed", err)), 30_000);
  budget.unref?.();

  return {
    url: listeningUrl,
    app,
    async stop() {
      clearInterval(budget);
      server.stop(true);
      await driver.close();
      reads?.close?.();
      assetOwnership?.close?.();
      libraryReads?.close?.();
      ledger.close();
      client.close();
    },
  };
}
