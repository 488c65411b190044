// Applies the consent tables' checked-in migrations (start-up and the ledger's first use only:
// reads the migration folders from disk, so it stays outside the Web-standard core).
//   ledger           publication_consents      the consent ledger's database (PORTAL_LEDGER_URL;
//                                              by default the portal's own)
//   withdrawal log   publication_withdrawals   always the portal's own database
// Each set has its own migrations table, so they sit beside the portal's and the shared tables'
// in one file; the SQL is idempotent (IF NOT EXISTS) so two portal workers booting together do not race.
import type { Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { fileURLToPath } from "node:url";

export const LEDGER_MIGRATIONS = fileURLToPath(new URL("./ledger-migrations", import.meta.url));
export const WITHDRAWAL_LOG_MIGRATIONS = fileURLToPath(new URL("./withdrawal-migrations", import.meta.url));

export async function migrateLedger(client: Client): Promise<void> {
  await migrate(drizzle(client), { migrationsFolder: LEDGER_MIGRATIONS, migrationsTable: "__ledger_migrations" });
}

export async function migrateWithdrawalLog(client: Client): Promise<void> {
  await migrate(drizzle(client), { migrationsFolder: WITHDRAWAL_LOG_MIGRATIONS, migrationsTable: "__withdrawal_log_migrations" });
}

/** The portal database's share: the withdrawal log, and the ledger's default home. */
export async function migrateConsentTables(portalDb: Client): Promise<void> {
  await migrateWithdrawalLog(portalDb);
  await migrateLedger(portalDb);
}
