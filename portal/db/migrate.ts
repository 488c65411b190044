// Applies the shared tables' (key table, avatar tables) and the portal's checked-in migrations
// (start-up only: reads the migration folders from disk, so it lives outside the Web-standard core in app.ts).
import type { Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { fileURLToPath } from "node:url";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { migrateAvatarTables } from "../../shared/avatar-tables/migrate.ts";
import { migrateConsentTables } from "../consent/migrate.ts";

export const PORTAL_MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

export async function migratePortalDb(client: Client): Promise<void> {
  await migrateKeyTable(client);
  await migrateAvatarTables(client);
  // The withdrawal log, and the consent ledger's default home (PORTAL_LEDGER_URL unset).
  await migrateConsentTables(client);
  await migrate(drizzle(client), { migrationsFolder: PORTAL_MIGRATIONS, migrationsTable: "__portal_migrations" });
}
