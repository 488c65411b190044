// Opens the box database on the volume and applies its checked-in migrations.
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseUnusable, databaseUnusable, quickCheck } from "../../shared/errors/database-unusable.ts";

export interface BoxDb {
  client: Client;
  db: LibSQLDatabase;
  /** False for an in-memory database: nothing survives the process. */
  durable: boolean;
}

const FRESH = "the box makes a fresh one at start";

/** Throws DatabaseUnusable (file, SQLite's cause, what to do) when box.db cannot be used. */
export async function openBoxDb(dataDir: string | null): Promise<BoxDb> {
  let url = ":memory:";
  const path = dataDir ? resolve(join(dataDir, "box.db")) : ":memory:";
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    url = `file:${path}`;
    // libSQL's own error for this is "ConnectionFailed(...: 14)", with no SQLite code to read.
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
      throw new DatabaseUnusable(path, "SQLITE_CANTOPEN", "it is a folder, not a database file", `Move the folder aside; ${FRESH}.`, "box");
    }
  }
  let client: Client;
  try {
    client = createClient({ url });
  } catch (err) {
    throw databaseUnusable(err, path, "box", FRESH) ?? err;
  }
  const db = drizzle(client);
  try {
    await quickCheck(client);
    await migrate(db, { migrationsFolder: fileURLToPath(new URL("./migrations", import.meta.url)), migrationsTable: "__box_migrations" });
  } catch (err) {
    client.close();
    throw databaseUnusable(err, path, "box", FRESH) ?? err;
  }
  return { client, db, durable: url !== ":memory:" };
}
