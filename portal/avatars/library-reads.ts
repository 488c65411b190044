// The library's reads through bun:sqlite prepared statements on a local `file:` database: the same
// SQL as LibraryStore's, on a connection of its own that never writes (query_only), so its
// `PRAGMA data_version` moves with every commit of every other connection (the portal's libSQL
// client, a box's) and with none of its own. WAL lets it read beside writers. Bun only.
import { Database } from "bun:sqlite";
import { LIST_SQL, PUBLIC_SQL, type LibraryReads, type PositionalRow } from "./store.ts";

export function bunSqliteLibrary(path: string): LibraryReads {
  const db = new Database(path);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA query_only = 1");
  const list = db.query<PositionalRow, [string]>(LIST_SQL);
  const listPublic = db.query<PositionalRow, []>(PUBLIC_SQL);
  const version = db.query<{ data_version: number }, []>("PRAGMA data_version");
  return {
    list: (owner) => list.values(owner) as PositionalRow[],
    listPublic: () => listPublic.values() as PositionalRow[],
    dataVersion: () => version.get()!.data_version,
    close: () => db.close(),
  };
}
