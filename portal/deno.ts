// Entry point on Deno (the edge entry):
//   node_modules/.bin/deno run --node-modules-dir=manual --cached-only --no-remote --no-lock --no-prompt \
//     --allow-net --allow-env --allow-read --allow-sys=osRelease portal/deno.ts            (edge)
//     ... --allow-net --allow-env --allow-read --allow-write --allow-ffi --allow-sys ...   (local)
// (the flags and why: portal/deno/command.ts). Serves the same Web-standard core (portal/app.ts) as
// the Bun entry with Deno.serve, configured from the environment (portal/env.ts + portal/deno/env.ts),
// and prints the same one JSON line `{"listening":"http://HOST:PORT"}` once up.
//
// What it wires, against portal/server.ts (the Bun entry):
//   database     @libsql/client for `file:` (native binding, a local run), @libsql/client/web for a
//                hosted libSQL (libsql:, https:, wss:): the edge. Same migrations.
//   fast reads   node:sqlite statements on a local file (Bun: bun:sqlite); libSQL on a remote URL
//   secret       PORTAL_SECRET, else generated once into PORTAL_DATA_DIR (needs a writable disk)
//   mail         PORTAL_SMTP_URL (nodemailer over TCP), else the outbox folder (a writable disk)
//   GPU          `none` (default here) and `ec2`; `local` spawns a box and is refused (Bun entry)
//   media        PORTAL_STORAGE=file (a writable disk) or s3 (the edge)
//   portraits    sharp where native code loads (a local run), else PORTAL_IMAGE_BASE_URL; with
//                neither, generating answers 503 `portrait_generator_unavailable`
//   studio       the prebuilt script (portal/deno/studio-script.ts), a 503 with the build command
//                when it is missing
//   WebSockets   relayed with Deno.upgradeWebSocket (portal/deno/websocket.ts)
import { lookup } from "node:dns/promises";
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { databaseUnusable } from "../shared/errors/database-unusable.ts";
import { ec2DriverOptions } from "./gpu/drivers/ec2-options.ts";
import { createPortalApp, type PortalApp } from "./app.ts";
import type { LedgerConnection } from "./consent/ledger.ts";
import { recoverFromBusy } from "./db/busy.ts";
import { localDbPath } from "./db/local-file.ts";
import { createLibsqlClient, migrateLedgerForDeno, migratePortalDbForDeno, openPortalDbForDeno } from "./deno/libsql.ts";
import { deno, type DenoApi } from "./deno/runtime.ts";
import { openSqliteReads } from "./deno/sqlite-reads.ts";
import { prebuiltStudioScript } from "./deno/studio-script.ts";
import { readDenoPortalEnv, type DenoPortalEnv } from "./deno/env.ts";
import { createDenoWebSocketRelay, isWebSocketUpgrade } from "./deno/websocket.ts";
import type { GpuDriver } from "./gpu/drivers/driver.ts";
import { NoGpuDriver } from "./gpu/drivers/none.ts";
import type { SvgRasteriser } from "./portraits/generator.ts";
import { loadOrCreateSecret } from "./secret-file.ts";
import type { Mailer } from "./sign-in/mailer.ts";
import { OutboxMailer, signInLinkIn } from "./sign-in/outbox-mailer.ts";
import { SmtpMailer } from "./sign-in/smtp-mailer.ts";
import { assetStoreFactory } from "./storage/open-store.ts";

export interface RunningDenoPortal {
  url: string;
  app: PortalApp;
  stop(): Promise<void>;
}

const log = (msg: string, err?: unknown) => console.error(err === undefined ? msg : `${msg}: ${err instanceof Error ? err.message : String(err)}`);

async function createDriver(env: DenoPortalEnv): Promise<GpuDriver> {
  if (env.gpuDriver !== "ec2") return new NoGpuDriver();
  // Loaded only when used: the AWS SDK is large. Credentials: the SDK's chain (AWS_* variables at the edge).
  const { Ec2GpuDriver } = await import("./gpu/drivers/ec2.ts");
  return new Ec2GpuDriver(ec2DriverOptions(env, env.ec2.userDataFile ? await readFile(env.ec2.userDataFile, "utf8") : undefined));
}

/** Where sign-in mails are written when no mail server is configured; null with SMTP. */
const outboxFolder = (env: DenoPortalEnv) => (env.smtpUrl ? null : (env.mailOutbox ?? join(env.dataDir, "outbox")));

async function createMailer(env: DenoPortalEnv): Promise<Mailer> {
  if (env.smtpUrl) return new SmtpMailer(env.smtpUrl, env.mailFrom);
  const folder = outboxFolder(env)!;
  try {
    await mkdir(folder, { recursive: true });
  } catch (err) {
    throw new Error(`sign-in mails go to the outbox folder ${folder} when PORTAL_SMTP_URL is unset, and it cannot be made here (${err instanceof Error ? err.message : String(err)}): set PORTAL_SMTP_URL on a host without a writable disk`);
  }
  return new OutboxMailer(folder, env.mailFrom, (path, mail) =>
    log(`portal: sign-in mail for ${mail.to} written to ${path}; sign-in link: ${signInLinkIn(mail.text) ?? "(none found in the mail)"}`),
  );
}

/** sharp's rasteriser where its native code loads (a local run); null at the edge. */
async function loadRasteriser(): Promise<{ rasterise: SvgRasteriser | null; why: string | null }> {
  try {
    await import("sharp");
    const { sharpRasterise } = await import("./portraits/sharp-rasterise.ts");
    return { rasterise: sharpRasterise, why: null };
  } catch (err) {
    return { rasterise: null, why: err instanceof Error ? err.message.split("\n")[0] : String(err) };
  }
}

/** The `PORTAL_LEDGER_URL` start contract (portal/consent/ledger-open.ts), with the client chosen by URL. */
async function openLedger(env: DenoPortalEnv, portalDb: Awaited<ReturnType<typeof openPortalDbForDeno>>): Promise<{ connection: LedgerConnection | null; close(): void }> {
  if (env.ledgerUrl === null) return { connection: { client: portalDb }, close: () => {} };
  if (env.ledgerUrl === "off") return { connection: null, close: () => {} };
  const path = localDbPath(env.ledgerUrl);
  if (path) await mkdir(dirname(path), { recursive: true });
  const opened = await createLibsqlClient(env.ledgerUrl, env.ledgerAuthToken);
  // A local file shared with other processes can be busy like the portal's own (db/busy.ts).
  const client = path ? recoverFromBusy(opened) : opened;
  const migrate = async () => {
    if (path) await client.execute("PRAGMA journal_mode = WAL");
    await migrateLedgerForDeno(client);
  };
  return { connection: { client, migrate }, close: () => client.close() };
}

export async function startDenoPortal(env: DenoPortalEnv): Promise<RunningDenoPortal> {
  const D = deno();
  const client = await openPortalDbForDeno(env.dbUrl, env.dbAuthToken);
  await migratePortalDbForDeno(client);
  const ledger = await openLedger(env, client);
  const secret = env.secret ?? loadOrCreateSecret(env.dataDir);
  const dbPath = localDbPath(env.dbUrl);
  const fast = dbPath ? await openSqliteReads(dbPath) : null;
  const driver = await createDriver(env);
  const assetStore = await assetStoreFactory(env.storage, env.dataDir);
  const mailer = await createMailer(env);
  const portraits = env.imageProvider ? { rasterise: null, why: null } : await loadRasteriser();
  if (!env.imageProvider && !portraits.rasterise) {
    log(`portal: portraits are not drawn on this host (sharp did not load: ${portraits.why}); set PORTAL_IMAGE_BASE_URL for an image provider`);
  }
  const studio = prebuiltStudioScript(env.studioScript, { readFile: (p) => D.readFile(p), stat: (p) => D.stat(p) });

  let app: PortalApp | null = null;
  let relay: ReturnType<typeof createDenoWebSocketRelay> | null = null;
  const server = D.serve({ hostname: env.host, port: env.port, onListen: () => {} }, async (req) => {
    if (!app || !relay) return new Response("starting", { status: 503 });
    if (isWebSocketUpgrade(req)) return relay(req);
    if (req.method === "GET" && new URL(req.url).pathname === "/studio/app.js" && !(await studio.available())) {
      return new Response(studio.missingBody(), { status: 503, headers: { "Content-Type": "text/javascript; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
    }
    return app.fetch(req);
  });
  const listeningUrl = `http://${env.host.includes(":") ? `[${env.host}]` : env.host}:${server.addr.port}`;
  const publicUrl = env.publicUrl ?? listeningUrl;

  app = createPortalApp({
    assetStore,
    assetOwnership: fast?.ownership ?? null,
    libraryReads: fast?.library ?? null,
    reads: fast?.hot ?? null,
    db: client,
    secret,
    // The signer stays the core's Web Crypto one: on Deno, node:crypto's createHmac (the Bun entry's
    // NodeSigner) measured about half the throughput of GET /auth/keys with a cookie.
    mailer,
    oidc: env.oidc ? { issuer: env.oidc.issuer, audience: env.oidc.audience, jwks: env.oidc.jwksUrl } : null,
    gpu: driver,
    adminEmails: env.adminEmails,
    ownerEmails: env.ownerEmails,
    gpuMaxRuntimeSeconds: env.gpuMaxRuntimeSeconds,
    gpuHourlyCostUsd: env.gpuHourlyCostUsd,
    boxUrl: env.boxUrl,
    publicUrl,
    sessionTtlSeconds: env.sessionTtlSeconds,
    credentialTtlSeconds: env.credentialTtlSeconds,
    ledger: ledger.connection,
    voice: { elevenlabsBaseUrl: env.elevenlabsBaseUrl, cartesiaBaseUrl: env.cartesiaBaseUrl },
    portraits: { rasterise: portraits.rasterise, imageProvider: env.imageProvider },
    studio: { script: () => studio.script(), outbox: outboxFolder(env) },
    resolveHostname: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
    log,
  });
  relay = createDenoWebSocketRelay(app.services.boxUrl, (req, o) => D.upgradeWebSocket(req, o));

  // The runtime budget is enforced even when nobody looks at the status.
  const gpu = app.services.gpu;
  const budget = setInterval(() => void gpu.enforce().catch((err) => log("portal: GPU budget check failed", err)), 30_000);
  D.unrefTimer(budget as unknown as number);

  return {
    url: listeningUrl,
    app,
    async stop() {
      clearInterval(budget);
      // Open streams and sockets do not hold the stop up for long.
      await Promise.race([server.shutdown(), new Promise((r) => setTimeout(r, 2000))]);
      await driver.close();
      fast?.close();
      ledger.close();
      (mailer as { close?: () => void }).close?.();
      client.close();
    },
  };
}

const FRESH = "the portal makes a fresh one at start, without the keys and accounts this one held";

if (import.meta.main) {
  // Annotated, so that TypeScript sees D.exit() end the flow.
  const D: DenoApi = deno();
  let env: DenoPortalEnv;
  try {
    env = readDenoPortalEnv(D.env.toObject());
  } catch (err) {
    console.error(JSON.stringify({ level: "error", msg: `portal: ${err instanceof Error ? err.message : String(err)}` }));
    D.exit(1);
  }
  // A SQLite failure at start can only be the portal's one local database: one readable line.
  const portal = await startDenoPortal(env).catch((err: unknown) => {
    const path = localDbPath(env.dbUrl);
    const unusable = path ? databaseUnusable(err, resolve(path), "portal", FRESH) : null;
    if (!unusable) throw err;
    console.error(unusable.logLine());
    return D.exit(1);
  });
  console.log(JSON.stringify({ listening: portal.url }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(JSON.stringify({ level: "info", msg: "portal stopping", signal }));
    await portal.stop().catch(() => undefined);
    D.exit(0);
  };
  D.addSignalListener("SIGTERM", () => void stop("SIGTERM"));
  D.addSignalListener("SIGINT", () => void stop("SIGINT"));
}
