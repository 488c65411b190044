// Implements: Authentication: Plane A, point 2 (the key table shared with the portal).
// The per-request lookup is the hot path of every authenticated route: on a local `file:` key
// table under Bun it runs through one reused bun:sqlite prepared statement (~7 µs, see
// MEDIA-NOTES "HTTP"); any other libSQL URL goes through @libsql/client. No cache: a revoked
// or expired credential is refused on the very next request.
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { credentials, type NewCredentialRow } from "../../shared/key-table/schema.ts";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";

/** A credential row joined with the row of the credential that minted it (for session tokens). */
export interface KeyRecord {
  kind: string;
  scope: string;
  owner: string | null;
  parent_id: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  p_kind: string | null;
  p_owner: string | null;
  p_expires_at: number | null;
  p_revoked_at: number | null;
}

export interface KeyTable {
  lookup(digest: string): KeyRecord | null | Promise<KeyRecord | null>;
  insert(row: NewCredentialRow): Promise<void>;
  close(): void;
}

const LOOKUP_SQL = `SELECT t.kind, t.scope, t.owner, t.parent_id, t.expires_at, t.revoked_at,
  p.kind AS p_kind, p.owner AS p_owner, p.expires_at AS p_expires_at, p.revoked_at AS p_revoked_at
  FROM credentials t LEFT JOIN credentials p ON p.id = t.parent_id WHERE t.id = ?`;

export async function openKeyTable(url: string): Promise<KeyTable> {
  const client = createClient({ url });
  await migrateKeyTable(client);
  const db = drizzle(client);
  const insert = async (row: NewCredentialRow) => {
    await db.insert(credentials).values(row);
  };
  const fast = await bunSqliteLookup(url);
  if (fast) {
    return { lookup: fast.lookup, insert, close: () => (fast.close(), client.close()) };
  }
  return {
    async lookup(digest) {
      const rs = await client.execute({ sql: LOOKUP_SQL, args: [digest] });
      return (rs.rows[0] as unknown as KeyRecord | undefined) ?? null;
    },
    insert,
    close: () => client.close(),
  };
}

async function bunSqliteLookup(url: string) {
  if (typeof Bun === "undefined" || !url.startsWith("file:")) return null;
  const path = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
  const { Database } = await import("bun:sqlite");
  const sqlite = new Database(path);
  sqlite.exec("PRAGMA busy_timeout = 5000");
  const stmt = sqlite.query<KeyRecord, [string]>(LOOKUP_SQL);
  return { lookup: (digest: string) => stmt.get(digest) ?? null, close: () => sqlite.close() };
}
