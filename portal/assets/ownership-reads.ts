// The asset route's ownership check through a bun:sqlite prepared statement on a local `file:`
// database (a @libsql/client read through drizzle costs ~0.5 ms on this route's hot path). Same SQL
// as the drizzle query, separate connection; WAL lets it read beside writers. Bun only.
import { Database } from "bun:sqlite";
import { OWNS_AVATAR_SQL, type OwnershipReads } from "./store.ts";

export function bunSqliteOwnership(path: string): OwnershipReads {
  const db = new Database(path);
  db.exec("PRAGMA busy_timeout = 5000");
  const owns = db.query<{ one: number }, [string, string]>(OWNS_AVATAR_SQL);
  return {
    owns: (owner, avatarId) => owns.get(owner, avatarId) !== null,
    close: () => db.close(),
  };
}
