// `GET /auth/avatars` with the faster library reads a Bun entry passes (library-reads.ts) and the
// bodies kept under SQLite's `PRAGMA data_version`: the very next request shows an observation a
// box wrote on its own connection, a visibility flip, an erasure and a write of the portal's own
// libSQL client; the answers are the drizzle store's; the cache's bounds. The reads here are the
// same SQL on a second `libsql` connection (vitest runs on Node, where bun:sqlite does not exist);
// library-fresh.int.test.ts runs the real Bun entry.
import { createClient, type Client } from "@libsql/client";
import Database from "libsql";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedRecords } from "../../box/avatars/own/shared-records.ts";
import { createPortalApp } from "../app.ts";
import { TEST_SECRET } from "../testing/test-portal.ts";
import { LibraryBodyCache } from "./library-cache.ts";
import { json, libraryFixture, type LibraryFixture } from "../testing/library-fixture.ts";
import { LIST_SQL, PUBLIC_SQL, type LibraryReads, type PositionalRow } from "./store.ts";

/** LibraryReads on a connection of its own that never writes, counting the list reads. */
function secondConnectionReads(path: string): LibraryReads & { lists: number } {
  const db = new Database(path);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA query_only = 1");
  const list = db.prepare(LIST_SQL).raw();
  const listPublic = db.prepare(PUBLIC_SQL).raw();
  const version = db.prepare("PRAGMA data_version").raw();
  const reads = {
    lists: 0,
    list: (owner: string) => (reads.lists++, list.all(owner) as PositionalRow[]),
    listPublic: () => listPublic.all() as PositionalRow[],
    dataVersion: () => Number((version.get() as unknown[])[0]),
    close: () => db.close(),
  };
  return reads;
}

let plain: LibraryFixture; // the drizzle store, nothing kept
let f: LibraryFixture; // the same database through the faster reads
let reads: ReturnType<typeof secondConnectionReads>;
let boxClient: Client;
let box: SharedRecords;
let ada: string;
let bob: string;

beforeAll(async () => {
  plain = await libraryFixture();
  reads = secondConnectionReads(fileURLToPath(plain.dbUrl));
  f = plain.withApp(createPortalApp({ db: plain.client, secret: TEST_SECRET, mailer: plain.mailer, libraryReads: reads, log: () => {} }));
  // A box: its own libSQL connection to the shared file, writing as a box does.
  boxClient = createClient({ url: plain.dbUrl, timeout: 5000 });
  box = new SharedRecords(boxClient, true, false, { region: "eu-west-1", volume: "vol-box" });
  ada = await f.signIn("ada@example.com");
  bob = await f.signIn("bob@example.com");
});
afterAll(async () => {
  reads?.close?.();
  boxClient?.close();
  await plain?.close();
});

const body = async (fx: LibraryFixture, cookie: string, path = "/auth/avatars") => {
  const res = await fx.call(cookie, "GET", path);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return json(res);
};
const mine = async (cookie: string) => (await body(f, cookie)).avatars as Record<string, any>[];
const ids = async (cookie: string, path = "/auth/avatars") =>
  ((await body(f, cookie, path)).avatars as { avatar_id: string }[]).map((a) => a.avatar_id);

describe("GET /auth/avatars with the faster reads", () => {
  it("keeps each person's body while nothing is written, and reads again after any commit", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "kept" });
    const first = await body(f, ada);
    const before = reads.lists;
    expect(await body(f, ada)).toEqual(first);
    expect(await body(f, ada)).toEqual(first);
    expect(reads.lists).toBe(before); // from memory: the freshness tests below are about the cache
    await body(f, bob);
    expect(reads.lists).toBe(before + 1); // another person's body is their own
    await plain.client.execute(
      "INSERT INTO avatar_erase_orders (subject, avatar_id, owner, ordered_at) VALUES ('open', 'unrelated', NULL, 0)",
    );
    await body(f, ada);
    expect(reads.lists).toBe(before + 2); // a commit anywhere in the file drops every body
  });

  it("shows an observation a box writes on its own connection on the very next request", async () => {
    expect(await ids(ada)).not.toContain("from-box");
    await box.observe({
      subject: "owner:ada@example.com",
      avatarId: "from-box",
      name: "from-box.jpg",
      sourceKind: "photo",
      state: "preparing",
    });
    const [row] = (await mine(ada)).filter((a) => a.avatar_id === "from-box");
    expect(row).toMatchObject({ state: "preparing", prepared_in_region: "eu-west-1", weights_volume: "vol-box", visibility: "private" });
    await box.observe({
      subject: "owner:ada@example.com",
      avatarId: "from-box",
      name: "from-box.jpg",
      sourceKind: "photo",
      state: "ready",
      detail: "done",
    });
    expect((await mine(ada)).find((a) => a.avatar_id === "from-box")).toMatchObject({ state: "ready", detail: "done" });
  });

  it("shows a visibility flip on the very next request, in the library and in the public partition", async () => {
    await box.observe({ subject: "owner:ada@example.com", avatarId: "flip", name: "flip.jpg", sourceKind: "photo", state: "ready" });
    expect((await mine(ada)).find((a) => a.avatar_id === "flip")!.visibility).toBe("private");
    expect(await ids(bob, "/auth/avatars/public")).not.toContain("flip");
    expect((await f.call(ada, "POST", "/auth/avatars/flip/publication-consent")).status).toBe(201);
    expect((await f.call(ada, "PUT", "/auth/avatars/flip/visibility", { visibility: "public" })).status).toBe(200);
    expect((await mine(ada)).find((a) => a.avatar_id === "flip")!.visibility).toBe("public");
    expect(await ids(bob, "/auth/avatars/public")).toContain("flip");
    expect((await f.call(ada, "PUT", "/auth/avatars/flip/visibility", { visibility: "private" })).status).toBe(200);
    expect((await mine(ada)).find((a) => a.avatar_id === "flip")!.visibility).toBe("private");
    expect(await ids(bob, "/auth/avatars/public")).not.toContain("flip");
    // A new upload of the face (the box's rule) makes a public avatar private again.
    expect((await f.call(ada, "POST", "/auth/avatars/flip/publication-consent")).status).toBe(201); // the withdrawal ended the first
    expect((await f.call(ada, "PUT", "/auth/avatars/flip/visibility", { visibility: "public" })).status).toBe(200);
    expect((await mine(ada)).find((a) => a.avatar_id === "flip")!.visibility).toBe("public");
    await box.observe({
      subject: "owner:ada@example.com",
      avatarId: "flip",
      name: "flip.jpg",
      sourceKind: "photo",
      state: "preparing",
      upload: true,
    });
    expect((await mine(ada)).find((a) => a.avatar_id === "flip")).toMatchObject({ visibility: "private", state: "preparing" });
    expect(await ids(bob, "/auth/avatars/public")).not.toContain("flip");
  });

  it("shows an erasure on the very next request", async () => {
    await box.observe({ subject: "owner:ada@example.com", avatarId: "gone", name: "gone.jpg", sourceKind: "photo", state: "ready" });
    expect(await ids(ada)).toContain("gone");
    expect((await f.call(ada, "DELETE", "/auth/avatars/gone")).status).toBe(202);
    expect(await ids(ada)).not.toContain("gone");
  });

  it("shows a write of the portal's own libSQL client (not through a route) on the very next request", async () => {
    await mine(ada);
    await plain.client.execute({
      sql: "UPDATE avatar_observations SET detail = 'edited in place' WHERE owner = ? AND avatar_id = 'kept'",
      args: ["ada@example.com"],
    });
    expect((await mine(ada)).find((a) => a.avatar_id === "kept")!.detail).toBe("edited in place");
  });

  it("answers exactly what the drizzle store answers, for the library and the public partition", async () => {
    await box.observe({ subject: "owner:bob@example.com", avatarId: "twice", name: "first.png", sourceKind: "image", state: "ready" });
    plain.tick();
    await f.observe({ subject: "key:b0b", owner: "bob@example.com", avatarId: "twice", name: "second.png", state: "preparing" });
    for (const cookie of [ada, bob]) {
      expect(await body(f, cookie)).toEqual(await body(plain, cookie));
      expect(await body(f, cookie, "/auth/avatars/public")).toEqual(await body(plain, cookie, "/auth/avatars/public"));
    }
    expect((await mine(bob)).filter((a) => a.avatar_id === "twice")).toEqual([
      expect.objectContaining({ name: "second.png", state: "preparing" }),
    ]);
  });
});

describe("LibraryBodyCache", () => {
  it("drops every body at a new version and keeps none read under an older one", () => {
    const c = new LibraryBodyCache();
    expect(c.get("ada", 1)).toBeUndefined();
    c.set("ada", 1, "a1");
    c.set("bob", 1, "b1");
    expect(c.get("ada", 1)).toBe("a1");
    expect(c.get("bob", 2)).toBeUndefined();
    expect(c.get("ada", 2)).toBeUndefined();
    c.set("ada", 1, "stale"); // read before the version moved: not kept
    expect(c.get("ada", 2)).toBeUndefined();
  });

  it("holds at most its byte budget", () => {
    const c = new LibraryBodyCache(100); // 50 UTF-16 code units
    c.get("x", 1);
    c.set("ada", 1, "a".repeat(30));
    c.set("bob", 1, "b".repeat(30)); // over budget: the kept ones go first
    expect(c.get("ada", 1)).toBeUndefined();
    expect(c.get("bob", 1)).toBe("b".repeat(30));
    c.set("big", 1, "c".repeat(51)); // larger than the whole budget: never kept
    expect(c.get("big", 1)).toBeUndefined();
    expect(c.get("bob", 1)).toBe("b".repeat(30));
  });
});
