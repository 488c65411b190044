// Implements: the portal wired once, for both runtime entries (portal/server.ts on Bun,
// portal/deno.ts on Deno): from the environment, the database and its migrations, the consent
// ledger, the secret, the fast reads, the GPU driver, the media store, the mail transport, the
// portrait rasteriser and the options `createPortalApp` takes. What differs by runtime (how SQLite
// and libSQL are opened, whether a box may be spawned, how the studio script is had, the HMAC
// signer) comes in as a `PortalRuntime`; serving HTTP and WebSockets stays with the entries.
import type { Client } from "@libsql/client";
import { lookup } from "node:dns/promises";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PortalAppOptions, PortalApp } from "./app.ts";
import type { LedgerConnection } from "./consent/ledger.ts";
import { localDbPath } from "./db/local-file.ts";
import type { PortalEnv } from "./env.ts";
import { ec2DriverOptions } from "./gpu/drivers/ec2-options.ts";
import type { GpuDriver } from "./gpu/drivers/driver.ts";
import { NoGpuDriver } from "./gpu/drivers/none.ts";
import type { Signer } from "./identity/tokens.ts";
import type { SvgRasteriser } from "./portraits/generator.ts";
import { loadOrCreateSecret } from "./secret-file.ts";
import type { Mailer } from "./sign-in/mailer.ts";
import { OutboxMailer, signInLinkIn } from "./sign-in/outbox-mailer.ts";
import { SmtpMailer } from "./sign-in/smtp-mailer.ts";
import { assetStoreFactory } from "./storage/open-store.ts";
import type { StudioScript } from "./studio/routes.ts";
import { setLogLevel } from "../shared/util/log.ts";

export type Log = (msg: string, err?: unknown) => void;

/** The portal's log line on standard error: the message, and the error's own message after it. */
export const log: Log = (msg, err) =>
  console.error(err === undefined ? msg : `${msg}: ${err instanceof Error ? err.message : String(err)}`);

/** The faster reads on a local SQLite file, opened with the runtime's own SQLite. */
export interface FastReads {
  hot: PortalAppOptions["reads"];
  ownership: PortalAppOptions["assetOwnership"];
  library: PortalAppOptions["libraryReads"];
  close(): void;
}

/** What each runtime entry opens its own way. */
export interface PortalRuntime {
  /** The portal's database, migrated. */
  openDb(env: PortalEnv): Promise<Client>;
  openLedger(env: PortalEnv, db: Client): Promise<{ connection: LedgerConnection | null; close(): void }>;
  /** Null where the runtime has no SQLite of its own (its absence only costs speed). */
  fastReads(dbPath: string): Promise<FastReads | null>;
  /** A box on this machine (PORTAL_GPU_DRIVER=local); absent where no child process may run. */
  localDriver?(env: PortalEnv, publicUrl: () => string, secret: string): Promise<GpuDriver>;
  studioScript(): Promise<StudioScript>;
  /** HMAC under the secret; absent keeps the core's Web Crypto one. */
  signer?(secret: string): Signer;
}

export interface WiredPortal {
  driver: GpuDriver;
  /** The options for `createPortalApp`, once the entry knows the URL it listens on. */
  appOptions(publicUrl: string): PortalAppOptions;
  close(): void;
}

/** Where sign-in mails are written when no mail server is configured; null with SMTP. */
export const outboxFolder = (env: PortalEnv) => (env.smtpUrl ? null : (env.mailOutbox ?? join(env.dataDir, "outbox")));

async function createMailer(env: PortalEnv): Promise<Mailer> {
  const folder = outboxFolder(env);
  if (!folder) return new SmtpMailer(env.smtpUrl!, env.mailFrom);
  try {
    await mkdir(folder, { recursive: true });
  } catch (err) {
    throw new Error(
      `sign-in mails go to the outbox folder ${folder} when PORTAL_SMTP_URL is unset, and it cannot be made here (${err instanceof Error ? err.message : String(err)}): set PORTAL_SMTP_URL on a host without a writable disk`,
    );
  }
  // No mail server (npm start): the link is printed too, so a newcomer can sign in from the console.
  return new OutboxMailer(folder, env.mailFrom, (path, mail) =>
    log(`portal: sign-in mail for ${mail.to} written to ${path}; sign-in link: ${signInLinkIn(mail.text) ?? "(none found in the mail)"}`),
  );
}

async function createDriver(env: PortalEnv, runtime: PortalRuntime, publicUrl: () => string, secret: string): Promise<GpuDriver> {
  if (env.gpuDriver === "ec2") {
    // Loaded only when used: the AWS SDK is large. Credentials: the SDK's chain (AWS_* variables at the edge).
    const { Ec2GpuDriver } = await import("./gpu/drivers/ec2.ts");
    return new Ec2GpuDriver(ec2DriverOptions(env, env.ec2.userDataFile ? await readFile(env.ec2.userDataFile, "utf8") : undefined));
  }
  if (env.gpuDriver === "local" && runtime.localDriver) return runtime.localDriver(env, publicUrl, secret);
  return new NoGpuDriver();
}

/** sharp's rasteriser where its native code loads (a local run); null at the edge, with why. */
async function loadRasteriser(): Promise<{ rasterise: SvgRasteriser | null; why: string | null }> {
  try {
    await import("sharp");
    const { sharpRasterise } = await import("./portraits/sharp-rasterise.ts");
    return { rasterise: sharpRasterise, why: null };
  } catch (err) {
    return { rasterise: null, why: err instanceof Error ? err.message.split("\n")[0] : String(err) };
  }
}

/** Opens everything the portal runs on; `publicUrl` is read late (a local box learns it once the entry listens). */
export async function wirePortal(env: PortalEnv, runtime: PortalRuntime, publicUrl: () => string): Promise<WiredPortal> {
  setLogLevel(env.logLevel);
  const db = await runtime.openDb(env);
  const ledger = await runtime.openLedger(env, db);
  const secret = env.secret ?? loadOrCreateSecret(env.dataDir);
  const dbPath = localDbPath(env.dbUrl);
  const fast = dbPath ? await runtime.fastReads(dbPath) : null;
  const driver = await createDriver(env, runtime, publicUrl, secret);
  const assetStore = await assetStoreFactory(env.storage, env.dataDir);
  const mailer = await createMailer(env);
  // Portraits: drawn here (sharp rasterises the SVG) unless PORTAL_IMAGE_BASE_URL names a provider.
  const portraits = env.imageProvider ? { rasterise: null, why: null } : await loadRasteriser();
  if (!env.imageProvider && !portraits.rasterise) {
    log(
      `portal: portraits are not drawn on this host (sharp did not load: ${portraits.why}); set PORTAL_IMAGE_BASE_URL for an image provider`,
    );
  }
  // The studio's browser script: asked for now, so a bundling runtime builds it in the background.
  void runtime.studioScript().catch((err) => log("portal: the studio script did not build (GET /studio/app.js retries)", err));

  return {
    driver,
    appOptions: (url) => ({
      db,
      secret,
      signer: runtime.signer?.(secret),
      mailer,
      assetStore,
      reads: fast?.hot ?? null,
      assetOwnership: fast?.ownership ?? null,
      libraryReads: fast?.library ?? null,
      oidc: env.oidc ? { issuer: env.oidc.issuer, audience: env.oidc.audience, jwks: env.oidc.jwksUrl } : null,
      gpu: driver,
      adminEmails: env.adminEmails,
      ownerEmails: env.ownerEmails,
      gpuMaxRuntimeSeconds: env.gpuMaxRuntimeSeconds,
      gpuHourlyCostUsd: env.gpuHourlyCostUsd,
      boxUrl: env.boxUrl,
      publicUrl: url,
      sessionTtlSeconds: env.sessionTtlSeconds,
      credentialTtlSeconds: env.credentialTtlSeconds,
      ledger: ledger.connection,
      voice: { elevenlabsBaseUrl: env.elevenlabsBaseUrl, cartesiaBaseUrl: env.cartesiaBaseUrl },
      portraits: { rasterise: portraits.rasterise, imageProvider: env.imageProvider },
      studio: { script: () => runtime.studioScript(), outbox: outboxFolder(env) },
      resolveHostname: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
      log,
    }),
    close() {
      fast?.close();
      ledger.close();
      (mailer as { close?: () => void }).close?.();
      db.close();
    },
  };
}

/** The runtime budget is enforced even when nobody looks at the status; returns the stop. */
export function enforceGpuBudget(app: PortalApp, unref: (timer: ReturnType<typeof setInterval>) => void): () => void {
  const gpu = app.services.gpu;
  const budget = setInterval(() => void gpu.enforce().catch((err) => log("portal: GPU budget check failed", err)), 30_000);
  unref(budget);
  return () => clearInterval(budget);
}
