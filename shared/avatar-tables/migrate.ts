// Applies the avatar tables' checked-in migrations. The portal runs it on the shared database at
// start (it owns that file); a box runs it too, on the shared database when it has one and on its
// own box.db when it has none. Its own migrations table lets it sit beside the key table's (and
// the box's) in one file; the SQL is idempotent (IF NOT EXISTS) so two planes booting together
// do not race. A later migration must stay safe to apply twice for the same reason.
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import type { Client } from "@libsql/client";
import { fileURLToPath } from "node:url";

export const AVATAR_TABLES_MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

export async function migrateAvatarTables(client: Client): Promise<void> {
  await migrate(drizzle(client), { migrationsFolder: AVATAR_TABLES_MIGRATIONS, migrationsTable: "__avatar_tables_migrations" });
}
