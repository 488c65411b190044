// The Deno entry's databases: which @libsql/client build opens a URL, and the start-up migrations.
//   file:, :memory:        @libsql/client (its native libSQL binding: Node-API, so --allow-ffi;
//                          a local run only, as no edge host loads native code)
//   libsql:, https:, wss:  @libsql/client/web (fetch or WebSocket, no native code): a hosted libSQL
//                          (Turso, sqld) is how the portal runs at the edge
// The web build is imported for remote URLs, so an edge isolate never loads the native binding.
//
// The migrations are the Bun entry's (portal/db/migrate.ts, portal/consent/migrate.ts and the
// shared tables'): the same folders and migrations tables, applied through drizzle's web driver
// because those modules import `drizzle-orm/libsql`, whose client import loads the native binding
// at module load. portal/deno-migrate.test.ts proves both give the same schema.
import type { Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql/web";
import { migrate } from "drizzle-orm/libsql/migrator";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../db/local-file.ts";

const isLocal = (url: string) => url === ":memory:" || url.startsWith("file:");

/** The libSQL client maker for a URL like this one, loading the native binding only for a local one. */
export async function libsqlClientMaker(url: string): Promise<(url: string, authToken?: string | null) => Client> {
  const { createClient } = isLocal(url)
    ? await import("@libsql/client")
    : ((await import("@libsql/client/web")) as { createClient: (c: object) => Client });
  return (u, authToken) => createClient({ url: u, authToken: authToken ?? undefined, timeout: 5000 });
}

/** A libSQL client for any URL, loading the native binding only for a local one. */
export async function createLibsqlClient(url: string, authToken?: string | null): Promise<Client> {
  return (await libsqlClientMaker(url))(url, authToken);
}

/** Opens the portal database like portal/db/open.ts: a local file gets its folder, WAL and a quick check. */
export function openPortalDbForDeno(url: string, authToken: string | null): Promise<Client> {
  return openDatabase(url, () => createLibsqlClient(url, authToken));
}

const folder = (relative: string) => fileURLToPath(new URL(relative, import.meta.url).href);

/** Migration sets in the order portal/db/migrate.ts applies them, with their migrations tables. */
export const PORTAL_MIGRATION_SETS = [
  { folder: folder("../../shared/key-table/migrations"), table: "__key_table_migrations" },
  { folder: folder("../../shared/avatar-tables/migrations"), table: "__avatar_tables_migrations" },
  { folder: folder("../consent/withdrawal-migrations"), table: "__withdrawal_log_migrations" },
  { folder: folder("../consent/ledger-migrations"), table: "__ledger_migrations" },
  { folder: folder("../db/migrations"), table: "__portal_migrations" },
] as const;

export const LEDGER_MIGRATION_SET = PORTAL_MIGRATION_SETS[3];

export async function migratePortalDbForDeno(client: Client): Promise<void> {
  for (const set of PORTAL_MIGRATION_SETS) await migrate(drizzle(client), { migrationsFolder: set.folder, migrationsTable: set.table });
}

export async function migrateLedgerForDeno(client: Client): Promise<void> {
  await migrate(drizzle(client), { migrationsFolder: LEDGER_MIGRATION_SET.folder, migrationsTable: LEDGER_MIGRATION_SET.table });
}
