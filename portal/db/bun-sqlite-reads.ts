// Hot reads through bun:sqlite prepared statements on a local `file:` database (~10 µs where a
// @libsql/client execute costs 40-140 µs: it prepares every call and builds row objects slowly).
// Same SQL, same file, separate read-only-in-practice connection; WAL lets it read beside writers.
import { Database } from "bun:sqlite";
import { LIST_KEYS_SQL, SESSION_EMAIL_SQL, type HotReads, type KeyListRow } from "./hot-reads.ts";

export function bunSqliteReads(path: string): HotReads {
  const db = new Database(path);
  db.exec("PRAGMA busy_timeout = 5000");
  const session = db.query<{ email: string }, [string, number]>(SESSION_EMAIL_SQL);
  const keys = db.query<KeyListRow, [string]>(LIST_KEYS_SQL);
  return {
    sessionEmail: (id, now) => session.get(id, now)?.email ?? null,
    listKeys: (owner) => keys.all(owner),
    close: () => db.close(),
  };
}
