// Applies the key table's checked-in migrations. Both planes call this at start;
// the SQL is idempotent (IF NOT EXISTS) so two planes booting together do not race.
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import type { Client } from "@libsql/client";
import { fileURLToPath } from "node:url";

export const KEY_TABLE_MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

export async function migrateKeyTable(client: Client): Promise<void> {
  await migrate(drizzle(client), { migrationsFolder: KEY_TABLE_MIGRATIONS, migrationsTable: "__key_table_migrations" });
}
