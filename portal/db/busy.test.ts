// A local libSQL client meeting a write lock held by another process longer than its busy
// timeout: every kind of write the portal makes (an autocommit INSERT, an UPDATE ... RETURNING,
// a write batch) fails busy while the lock is held, and all of them work once it is released,
// committed where other connections see them, with no write lock left behind.
import { createClient, type Client } from "@libsql/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { isDatabaseBusy, recoverFromBusy } from "./busy.ts";
import { holdWriteLock } from "./testing/write-lock.ts";

const dirs: string[] = [];
const clients: Client[] = [];
afterEach(() => {
  clients.splice(0).forEach((c) => c.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function database(): Promise<{ path: string; url: string }> {
  const dir = mkdtempSync(join(tmpdir(), "portal-busy-"));
  dirs.push(dir);
  const path = join(dir, "portal.db");
  const url = pathToFileURL(path).href;
  const setup = createClient({ url });
  await setup.execute("PRAGMA journal_mode = WAL");
  await setup.executeMultiple("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL); INSERT INTO t (id, v) VALUES (1, 'one');");
  setup.close();
  return { path, url };
}

// Bun (the portal's runtime) collects on demand; Node, which runs this test, does once allowed to.
setFlagsFromString("--expose-gc");
const nodeGc = runInNewContext("gc") as () => void;

function open(url: string): Client {
  // A short busy timeout only keeps the test quick; the portal's is five seconds.
  const client = recoverFromBusy(createClient({ url, timeout: 100 }), { collect: nodeGc });
  clients.push(client);
  return client;
}

const busy = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable("the write went through a held lock"),
    (err: unknown) => expect(isDatabaseBusy(err), String(err)).toBe(true),
  );

describe("a local client whose database another process holds locked", () => {
  it("fails busy while the lock is held, then writes again as soon as it is released", async () => {
    const { path, url } = await database();
    const client = open(url);
    expect((await client.execute("SELECT v FROM t WHERE id = 1")).rows[0].v).toBe("one");

    // The other process commits a change of its own too, as a box would: the portal's old read
    // snapshot is then stale, which is what kept a broken connection refusing writes.
    const lock = await holdWriteLock(path, { sql: "INSERT INTO t (id, v) VALUES (100, 'theirs')" });
    await busy(client.execute("INSERT INTO t (id, v) VALUES (2, 'two')"));
    await busy(client.execute("UPDATE t SET v = 'uno' WHERE id = 1 RETURNING v"));
    await busy(client.batch([{ sql: "INSERT INTO t (id, v) VALUES (3, 'three')", args: [] }], "write"));
    await lock.release();

    await client.execute("INSERT INTO t (id, v) VALUES (2, 'two')");
    expect((await client.execute("UPDATE t SET v = 'uno' WHERE id = 1 RETURNING v")).rows.map((r) => r.v)).toEqual(["uno"]);
    await client.batch([{ sql: "INSERT INTO t (id, v) VALUES (3, 'three')", args: [] }], "write");
    const tx = await client.transaction("write");
    await tx.execute("INSERT INTO t (id, v) VALUES (4, 'four')");
    await tx.commit();

    // Committed for everyone, and the portal's client holds no lock: another process writes again.
    const other = createClient({ url });
    clients.push(other);
    expect((await other.execute("SELECT id, v FROM t ORDER BY id")).rows.map((r) => [r.id, r.v])).toEqual([
      [1, "uno"],
      [2, "two"],
      [3, "three"],
      [4, "four"],
      [100, "theirs"],
    ]);
    const again = await holdWriteLock(path, { mode: "EXCLUSIVE", sql: "INSERT INTO t (id, v) VALUES (101, 'later')" });
    await again.release();
    expect((await client.execute("SELECT count(*) AS n FROM t")).rows[0].n).toBe(6);
  });

  it("an interactive transaction that meets the lock rolls back, and the next one commits", async () => {
    const { path, url } = await database();
    const client = open(url);
    const lock = await holdWriteLock(path, { mode: "EXCLUSIVE" });
    await busy(client.transaction("write"));
    const deferred = await client.transaction("deferred");
    await deferred.execute("SELECT count(*) FROM t");
    await busy(deferred.execute("INSERT INTO t (id, v) VALUES (5, 'five')"));
    await deferred.rollback(); // what drizzle does when a statement of its transaction fails
    await lock.release();

    const tx = await client.transaction("write");
    await tx.execute("INSERT INTO t (id, v) VALUES (5, 'five')");
    await tx.commit();
    expect((await client.execute("SELECT v FROM t WHERE id = 5")).rows[0].v).toBe("five");
  });

  it("recognises busy through drizzle's wrapping, and nothing else", () => {
    const libsql = Object.assign(new Error("SQLITE_BUSY: database is locked"), { code: "SQLITE_BUSY" });
    expect(isDatabaseBusy(new Error("Failed query: insert ...", { cause: libsql }))).toBe(true);
    expect(isDatabaseBusy(Object.assign(new Error("x"), { code: "SQLITE_BUSY_SNAPSHOT" }))).toBe(true);
    expect(isDatabaseBusy(Object.assign(new Error("x"), { code: "SQLITE_CONSTRAINT" }))).toBe(false);
    expect(isDatabaseBusy(new Error("database is locked"))).toBe(false);
  });
});
