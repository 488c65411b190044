// The `PORTAL_LEDGER_URL` start contract on Bun and Node (ledger-connect.ts holds it): libSQL's
// Node client, the ledger's migrations read from disk.
import { createClient, type Client } from "@libsql/client";
import { connectLedger, type OpenedLedger } from "./ledger-connect.ts";
import { migrateLedger } from "./migrate.ts";

export type { OpenedLedger };

export function openLedger(env: { ledgerUrl: string | null; ledgerAuthToken: string | null }, portalDb: Client): OpenedLedger {
  return connectLedger(env, portalDb, {
    create: (url, authToken) => createClient({ url, authToken: authToken ?? undefined, timeout: 5000 }),
    migrate: migrateLedger,
  });
}
