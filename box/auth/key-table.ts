// Implements: Authentication: Plane A, point 2 (the key table shared with the portal).
// The per-request lookup is the hot path of every authenticated route: on a local `file:` key
// table under Bun it runs through one reused bun:sqlite prepared statement (~7 µs, see
// docs/architecture.md "Key lookups on the hot path"); any other libSQL URL goes through @libsql/client. No cache: a revoked
// or expired credential is refused on the very next request.
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { credentials, type NewCredentialRow } from "../../shared/key-table/schema.ts";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { DatabaseUnusable, databaseUnusable, quickCheck } from "../../shared/errors/database-unusable.ts";

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

const ROW_SQL = "SELECT kind, scope, owner, parent_id, expires_at, revoked_at FROM credentials WHERE id = ?";
const PARENT_SQL =
  "SELECT kind AS p_kind, owner AS p_owner, expires_at AS p_expires_at, revoked_at AS p_revoked_at FROM credentials WHERE id = ?";
type Row = Omit<KeyRecord, "p_kind" | "p_owner" | "p_expires_at" | "p_revoked_at">;
type ParentRow = Pick<KeyRecord, "p_kind" | "p_owner" | "p_expires_at" | "p_revoked_at">;
const NO_PARENT: ParentRow = { p_kind: null, p_owner: null, p_expires_at: null, p_revoked_at: null };

/** One primary-key read; a second only for a session token (its minter). A join cost 4x more. */
function joinParent(row: Row | null | undefined, parent: (id: string) => ParentRow | null | undefined): KeyRecord | null {
  if (!row) return null;
  if (row.kind !== "session_token" || !row.parent_id) return { ...row, ...NO_PARENT };
  return { ...row, ...(parent(row.parent_id) ?? NO_PARENT) };
}

const FRESH = "the portal makes a fresh one at start, without the keys and accounts this one held";

/**
 * Opens (and migrates) the shared key table at `url`. Throws DatabaseUnusable, one readable
 * sentence naming the database, SQLite's cause and what to do, when it cannot be used.
 */
export async function openKeyTable(url: string): Promise<KeyTable> {
  const path = url.startsWith("file:") ? url.slice("file:".length).replace(/^\/\/(?=\/)/, "") : url;
  let opened: ReturnType<typeof createClient> | undefined;
  try {
    const client = (opened = createClient({ url }));
    if (url.startsWith("file:")) await quickCheck(client);
    await migrateKeyTable(client);
  } catch (err) {
    opened?.close();
    const unusable = databaseUnusable(err, path, "shared", FRESH);
    if (unusable) throw unusable;
    // Not SQLite's own words (a remote libSQL server down, a bad URL): still one sentence.
    let deepest = err as { message?: unknown; cause?: unknown };
    while (deepest?.cause) deepest = deepest.cause as typeof deepest;
    const reason = String(deepest?.message ?? deepest).split("\n")[0];
    throw new DatabaseUnusable(
      path,
      "UNAVAILABLE",
      reason,
      "Check BOX_KEY_TABLE_URL and that the database it names is reachable from the box.",
      "shared",
    );
  }
  const client = opened;
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
      const row = (await client.execute({ sql: ROW_SQL, args: [digest] })).rows[0] as unknown as Row | undefined;
      if (row?.kind !== "session_token" || !row.parent_id) return joinParent(row, () => null);
      const parent = (await client.execute({ sql: PARENT_SQL, args: [row.parent_id] })).rows[0] as unknown as ParentRow | undefined;
      return joinParent(row, () => parent);
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
  // WAL: a reader checks the shared wal-index instead of re-reading pages another process may
  // have changed, and the portal's writes do not block our reads.
  sqlite.exec("PRAGMA journal_mode = WAL");
  const row = sqlite.query<Row, [string]>(ROW_SQL);
  const parent = sqlite.query<ParentRow, [string]>(PARENT_SQL);
  return { lookup: (digest: string) => joinParent(row.get(digest), (id) => parent.get(id)), close: () => sqlite.close() };
}
