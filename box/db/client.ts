// Opens the box database on the volume and applies its checked-in migrations.
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface BoxDb {
  client: Client;
  db: LibSQLDatabase;
  /** False for an in-memory database: nothing survives the process. */
  durable: boolean;
}

export async function openBoxDb(dataDir: string | null): Promise<BoxDb> {
  let url = ":memory:";
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    url = `file:${join(dataDir, "box.db")}`;
  }
  const client = createClient({ url });
  const db = drizzle(client);
  await migrate(db, { migrationsFolder: fileURLToPath(new URL("./migrations", import.meta.url)), migrationsTable: "__box_migrations" });
  return { client, db, durable: url !== ":memory:" };
}
