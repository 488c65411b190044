// The Deno entry's fast reads on a local `file:` database, the counterpart of the Bun entry's
// bun:sqlite ones (portal/db/bun-sqlite-reads.ts, portal/assets/ownership-reads.ts,
// portal/avatars/library-reads.ts): the same SQL through node:sqlite prepared statements (Deno
// implements it natively, synchronously), on one connection of its own that never writes
// (query_only), so its `PRAGMA data_version` moves with every other connection's commits (the
// portal's libSQL client, a box's) and none of its own. WAL lets it read beside writers.
// A hosted libSQL (the edge) has no file to open: the portal then reads through libSQL, as the Bun
// entry does on a remote URL.
import type { HotReads, KeyListRow } from "../db/hot-reads.ts";
import { LIST_KEYS_SQL, SESSION_EMAIL_SQL } from "../db/hot-reads.ts";
import { OWNS_AVATAR_SQL, type OwnershipReads } from "../assets/store.ts";
import { LIST_SQL, PUBLIC_SQL, type LibraryReads, type PositionalRow } from "../avatars/store.ts";

interface Statement {
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): unknown[];
  setReturnArrays(on: boolean): void;
}
interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}

export interface SqliteReads {
  hot: HotReads;
  ownership: OwnershipReads;
  library: LibraryReads;
  close(): void;
}

/** node:sqlite's DatabaseSync, or null where the runtime has none (its absence only costs speed). */
async function loadDatabaseSync(): Promise<(new (path: string) => DatabaseSync) | null> {
  const specifier = "node:sqlite";
  try {
    return ((await import(specifier)) as { DatabaseSync: new (path: string) => DatabaseSync }).DatabaseSync;
  } catch {
    return null;
  }
}

export async function openSqliteReads(path: string): Promise<SqliteReads | null> {
  const DatabaseSync = await loadDatabaseSync();
  if (!DatabaseSync) return null;
  const db = new DatabaseSync(path);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA query_only = 1");
  const session = db.prepare(SESSION_EMAIL_SQL);
  const keys = db.prepare(LIST_KEYS_SQL);
  const owns = db.prepare(OWNS_AVATAR_SQL);
  const list = db.prepare(LIST_SQL);
  list.setReturnArrays(true);
  const listPublic = db.prepare(PUBLIC_SQL);
  listPublic.setReturnArrays(true);
  const version = db.prepare("PRAGMA data_version");
  let open = true;
  const close = () => {
    if (open) db.close();
    open = false;
  };
  return {
    hot: {
      sessionEmail: (id, now) => (session.get(id, now)?.email as string | undefined) ?? null,
      listKeys: (owner) => keys.all(owner) as KeyListRow[],
    },
    ownership: { owns: (owner, avatarId) => owns.get(owner, avatarId) !== undefined },
    library: {
      list: (owner) => list.all(owner) as PositionalRow[],
      listPublic: () => listPublic.all() as PositionalRow[],
      dataVersion: () => Number(version.get()!.data_version),
    },
    close,
  };
}
