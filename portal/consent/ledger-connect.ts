// The `PORTAL_LEDGER_URL` start contract, for both runtime entries (each passes how it makes a
// libSQL client and how it reads the ledger's migrations):
//   unset   the portal's own database (its tables are migrated with it at start)
//   off     not configured: publishing answers 503 `publication_consent_unavailable`
//   a URL   any libSQL URL; migrated on first use, and again after a failure, so a ledger that is
//           down at start only makes publishing wait for it
import type { Client } from "@libsql/client";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { recoverFromBusy } from "../db/busy.ts";
import { localDbPath } from "../db/local-file.ts";
import type { LedgerConnection } from "./ledger.ts";

export interface OpenedLedger {
  /** For `createPortalApp({ledger})`: null when off. */
  connection: LedgerConnection | null;
  /** For the start-up log: where agreements go (no credentials). */
  where: string;
  close(): void;
}

export interface LedgerClients {
  create(url: string, authToken: string | null): Client;
  migrate(client: Client): Promise<void>;
}

export function connectLedger(
  env: { ledgerUrl: string | null; ledgerAuthToken: string | null },
  portalDb: Client,
  clients: LedgerClients,
): OpenedLedger {
  if (env.ledgerUrl === null) return { connection: { client: portalDb }, where: "the portal database", close: () => {} };
  if (env.ledgerUrl === "off") return { connection: null, where: "off", close: () => {} };
  const path = localDbPath(env.ledgerUrl);
  if (path) mkdirSync(dirname(path), { recursive: true });
  const opened = clients.create(env.ledgerUrl, env.ledgerAuthToken);
  // A local file shared with other processes can be busy like the portal's own (db/busy.ts).
  const client = path ? recoverFromBusy(opened) : opened;
  const migrate = async () => {
    if (path) await client.execute("PRAGMA journal_mode = WAL");
    await clients.migrate(client);
  };
  let where = env.ledgerUrl;
  try {
    const u = new URL(env.ledgerUrl);
    u.username = "";
    u.password = "";
    u.search = "";
    where = u.href;
  } catch {
    // `file:relative/path` and the like carry no credentials.
  }
  return { connection: { client, migrate }, where, close: () => client.close() };
}
