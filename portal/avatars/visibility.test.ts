// `PUT /auth/avatars/{id}/visibility` and the consent ledger behind it: every transition of
// "Avatar visibility", the 400/404/409/503 answers, partitions, odd ids, a ledger that is off,
// unreachable, hanging or in its own database, withdrawals carried to the ledger when it comes
// back, and racing flips that leave the library, the public partition and the ledger consistent.
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPortalApp } from "../app.ts";
import { openLedger } from "../consent/ledger-open.ts";
import { MemoryMailer } from "../sign-in/mailer.ts";
import { signInThroughLink, TEST_SECRET } from "../testing/test-portal.ts";
import { json, libraryFixture, separateLedger, switchableClient, type LibraryFixture } from "../testing/library-fixture.ts";

let f: LibraryFixture;
let ada: string;
let bob: string;

beforeAll(async () => {
  f = await libraryFixture();
  ada = await f.signIn("ada@example.com");
  bob = await f.signIn("bob@example.com");
});
afterAll(() => f.close());

const put = (fx: LibraryFixture, cookie: string, id: string, body: unknown) =>
  fx.call(cookie, "PUT", `/auth/avatars/${id}/visibility`, body);
const agree = (fx: LibraryFixture, cookie: string, id: string) => fx.call(cookie, "POST", `/auth/avatars/${id}/publication-consent`);
const mine = async (fx: LibraryFixture, cookie: string, id: string) =>
  ((await json(await fx.call(cookie, "GET", "/auth/avatars"))).avatars as Record<string, any>[]).find((a) => a.avatar_id === id)!;
const isListedPublic = async (fx: LibraryFixture, cookie: string, id: string) =>
  ((await json(await fx.call(cookie, "GET", "/auth/avatars/public"))).avatars as Record<string, any>[]).some((a) => a.avatar_id === id);
const agreements = async (
  client: { execute: (s: { sql: string; args: string[] }) => Promise<{ rows: any[] }> },
  owner: string,
  id: string,
) =>
  (
    await client.execute({
      sql: "SELECT * FROM publication_consents WHERE owner = ? AND avatar_id = ? ORDER BY attested_at, rowid",
      args: [owner, id],
    })
  ).rows;

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual({ error: { code, message: expect.any(String) } });
}

describe("transitions", () => {
  it("private → public without an agreement: 409 publication_consent_required, stays private", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "v-first" });
    await expectError(await put(f, ada, "v-first", { visibility: "public" }), 409, "publication_consent_required");
    expect((await mine(f, ada, "v-first")).visibility).toBe("private");
    expect(await isListedPublic(f, bob, "v-first")).toBe(false);
  });

  it("private → public with a recorded agreement: 200 with the record, listed in the partition", async () => {
    expect((await agree(f, ada, "v-first")).status).toBe(201);
    const res = await put(f, ada, "v-first", { visibility: "public" });
    expect(res.status).toBe(200);
    const { avatar } = await json(res);
    expect(avatar).toEqual({ ...(await mine(f, ada, "v-first")), visibility: "public" });
    expect(Object.keys(avatar).sort()).toEqual(
      [
        "avatar_id",
        "name",
        "source_kind",
        "state",
        "created_at",
        "updated_at",
        "prepared_in_region",
        "weights_volume",
        "detail",
        "visibility",
      ].sort(),
    );
    expect(await isListedPublic(f, bob, "v-first")).toBe(true);
  });

  it("public → public: 200, unchanged", async () => {
    const res = await put(f, ada, "v-first", { visibility: "public" });
    expect(res.status).toBe(200);
    expect((await json(res)).avatar.visibility).toBe("public");
  });

  it("public → private: 200, out of the partition, the agreement withdrawn in the ledger", async () => {
    const res = await put(f, ada, "v-first", { visibility: "private" });
    expect(res.status).toBe(200);
    expect((await json(res)).avatar.visibility).toBe("private");
    expect(await isListedPublic(f, bob, "v-first")).toBe(false);
    const rows = await agreements(f.client, "ada@example.com", "v-first");
    expect(rows).toHaveLength(1);
    expect(rows[0].withdrawn_at).toEqual(expect.any(Number));
  });

  it("a withdrawn agreement no longer publishes; a new one does", async () => {
    await expectError(await put(f, ada, "v-first", { visibility: "public" }), 409, "publication_consent_required");
    expect((await agree(f, ada, "v-first")).status).toBe(201);
    expect((await put(f, ada, "v-first", { visibility: "public" })).status).toBe(200);
    const rows = await agreements(f.client, "ada@example.com", "v-first");
    expect(rows.map((r) => r.withdrawn_at === null)).toEqual([false, true]);
  });

  it("private → private: 200, and it withdraws an agreement that was never used", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "v-never" });
    expect((await agree(f, ada, "v-never")).status).toBe(201);
    const res = await put(f, ada, "v-never", { visibility: "private" });
    expect(res.status).toBe(200);
    expect((await json(res)).avatar.visibility).toBe("private");
    expect((await agreements(f.client, "ada@example.com", "v-never"))[0].withdrawn_at).toEqual(expect.any(Number));
    await expectError(await put(f, ada, "v-never", { visibility: "public" }), 409, "publication_consent_required");
  });

  it("flips every row of an avatar the person holds under several credentials", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "v-multi" });
    f.tick();
    await f.observe({ subject: "key:ada-key", owner: "ada@example.com", avatarId: "v-multi" });
    expect((await agree(f, ada, "v-multi")).status).toBe(201);
    expect((await put(f, ada, "v-multi", { visibility: "public" })).status).toBe(200);
    const rows = await f.client.execute({
      sql: "SELECT visibility FROM avatar_observations WHERE owner = ? AND avatar_id = ?",
      args: ["ada@example.com", "v-multi"],
    });
    expect(rows.rows.map((r) => r.visibility)).toEqual(["public", "public"]);
  });
});

describe("bad input", () => {
  const bad: [string, unknown][] = [
    ["missing", {}],
    ["upper case", { visibility: "PUBLIC" }],
    ["another word", { visibility: "unlisted" }],
    ["empty", { visibility: "" }],
    ["null", { visibility: null }],
    ["a number", { visibility: 1 }],
    ["an array", [{ visibility: "public" }]],
    ["no body", undefined],
    ["not JSON", "{visibility:"],
  ];
  for (const [what, body] of bad) {
    it(`refuses a visibility that is ${what} with 400 invalid_visibility and changes nothing`, async () => {
      await f.observe({ subject: "owner:bob@example.com", avatarId: "v-bad" });
      await expectError(await put(f, bob, "v-bad", body), 400, "invalid_visibility");
      expect((await mine(f, bob, "v-bad")).visibility).toBe("private");
    });
  }
});

describe("partitions and odd ids", () => {
  it("another person's avatar is answered exactly like a missing one, and is never changed", async () => {
    await f.observe({ subject: "owner:bob@example.com", avatarId: "v-bobs" });
    expect((await agree(f, bob, "v-bobs")).status).toBe(201);
    expect((await put(f, bob, "v-bobs", { visibility: "public" })).status).toBe(200);
    const missing = await put(f, ada, "v-no-such-avatar", { visibility: "private" });
    const theirs = await put(f, ada, "v-bobs", { visibility: "private" });
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual(await missing.json());
    await expectError(await put(f, ada, "v-bobs", { visibility: "public" }), 404, "avatar_not_found");
    await expectError(await agree(f, ada, "v-bobs"), 404, "avatar_not_found");
    expect(await isListedPublic(f, bob, "v-bobs")).toBe(true);
    expect(await agreements(f.client, "ada@example.com", "v-bobs")).toHaveLength(0);
    // No withdrawal was logged for a person who does not hold the avatar.
    const log = await f.client.execute({
      sql: "SELECT count(*) AS n FROM publication_withdrawals WHERE owner = ? AND avatar_id = ?",
      args: ["ada@example.com", "v-bobs"],
    });
    expect(Number(log.rows[0].n)).toBe(0);
  });

  const odd = [
    "a%2Fb",
    "..%2F..%2Fetc",
    "%2E%2E",
    "a.b",
    "caf%C3%A9",
    "%F0%9F%98%80",
    "%E0%A4%A",
    "%00",
    "a%20b",
    "x".repeat(300),
    "a/b",
    "a/b/c",
  ];
  for (const id of odd) {
    it(`answers the id ${id.length > 40 ? id.slice(0, 12) + "…" : id} with 404 (never 500), on both id routes`, async () => {
      const v = await put(f, ada, id, { visibility: "private" });
      expect(v.status).toBe(404);
      expect((await json(v)).error.code).toMatch(/not_found$/);
      const c = await agree(f, ada, id);
      expect(c.status).toBe(404);
      expect((await json(c)).error.code).toMatch(/not_found$/);
    });
  }

  it("answers other methods on the visibility route with 405", async () => {
    for (const method of ["GET", "POST", "DELETE", "PATCH"]) {
      expect((await f.call(ada, method, "/auth/avatars/v-first/visibility")).status, method).toBe(405);
    }
  });
});

describe("the ledger", () => {
  it("off: publishing and agreeing are 503 publication_consent_unavailable; withdrawing and the terms still work", async () => {
    const off = await libraryFixture({ ledger: null });
    try {
      const cookie = await off.signIn("ada@example.com");
      await off.observe({ subject: "owner:ada@example.com", avatarId: "off-1" });
      await expectError(await agree(off, cookie, "off-1"), 503, "publication_consent_unavailable");
      await expectError(await put(off, cookie, "off-1", { visibility: "public" }), 503, "publication_consent_unavailable");
      expect((await put(off, cookie, "off-1", { visibility: "private" })).status).toBe(200);
      expect((await off.call(cookie, "GET", "/auth/avatars/publication-terms")).status).toBe(200);
      // Still 404 first for an avatar that is not there.
      await expectError(await put(off, cookie, "nope", { visibility: "public" }), 404, "avatar_not_found");
    } finally {
      await off.close();
    }
  });

  it("unreachable (PORTAL_LEDGER_URL=http://127.0.0.1:1): publish 503, withdraw 200 at once", async () => {
    const portal = await libraryFixture();
    const ledger = openLedger({ ledgerUrl: "http://127.0.0.1:1", ledgerAuthToken: null }, portal.client);
    const mailer = new MemoryMailer();
    const app = createPortalApp({ db: portal.client, secret: TEST_SECRET, mailer, log: () => {}, ledger: ledger.connection });
    const down = portal.withApp(app);
    try {
      const cookie = await signInThroughLink(app, mailer, "ada@example.com");
      await portal.observe({ subject: "owner:ada@example.com", avatarId: "far-1" });
      // Published earlier through the default ledger (the portal database), so there is something to withdraw.
      const adaDefault = await portal.signIn("ada@example.com");
      expect((await agree(portal, adaDefault, "far-1")).status).toBe(201);
      expect((await put(portal, adaDefault, "far-1", { visibility: "public" })).status).toBe(200);

      await expectError(await agree(down, cookie, "far-1"), 503, "publication_consent_unavailable");
      await put(down, cookie, "far-1", { visibility: "private" }).then((r) => expect(r.status).toBe(200));
      await expectError(await put(down, cookie, "far-1", { visibility: "public" }), 503, "publication_consent_unavailable");
      const started = Date.now();
      expect((await put(down, cookie, "far-1", { visibility: "private" })).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2500);
      expect(await isListedPublic(portal, adaDefault, "far-1")).toBe(false);
    } finally {
      ledger.close();
      await portal.close();
    }
  });

  it("down, then back: the withdrawal is recorded when the ledger answers again, dated when it was asked", async () => {
    const own = separateLedger();
    const switchable = switchableClient(own.client);
    const fx = await libraryFixture({ ledger: { client: switchable.client, migrate: own.migrate } });
    try {
      const cookie = await fx.signIn("ada@example.com");
      await fx.observe({ subject: "owner:ada@example.com", avatarId: "back-1" });
      expect((await agree(fx, cookie, "back-1")).status).toBe(201);
      expect((await put(fx, cookie, "back-1", { visibility: "public" })).status).toBe(200);
      // The agreements are in the ledger's own database, not the portal's.
      expect(await agreements(own.client, "ada@example.com", "back-1")).toHaveLength(1);
      expect(await agreements(fx.client, "ada@example.com", "back-1")).toHaveLength(0);

      switchable.set("down");
      const asked = Math.floor(Date.now() / 1000);
      expect((await put(fx, cookie, "back-1", { visibility: "private" })).status).toBe(200);
      expect(await isListedPublic(fx, cookie, "back-1")).toBe(false);
      await expectError(await agree(fx, cookie, "back-1"), 503, "publication_consent_unavailable");
      const pending = await fx.client.execute("SELECT * FROM publication_withdrawals WHERE flushed_at IS NULL");
      expect(pending.rows.map((r) => [r.owner, r.avatar_id])).toEqual([["ada@example.com", "back-1"]]);
      expect((await agreements(own.client, "ada@example.com", "back-1"))[0].withdrawn_at).toBeNull();

      switchable.set("up");
      // The next ledger access carries the withdrawal first: the old agreement cannot publish.
      await expectError(await put(fx, cookie, "back-1", { visibility: "public" }), 409, "publication_consent_required");
      const [row] = await agreements(own.client, "ada@example.com", "back-1");
      expect(row.withdrawn_at).toBeGreaterThanOrEqual(asked);
      expect(row.withdrawn_at).toBeLessThanOrEqual(asked + 1);
      expect((await fx.client.execute("SELECT * FROM publication_withdrawals WHERE flushed_at IS NULL")).rows).toHaveLength(0);
      // A new agreement (recorded after the withdrawal) publishes.
      expect((await agree(fx, cookie, "back-1")).status).toBe(201);
      expect((await put(fx, cookie, "back-1", { visibility: "public" })).status).toBe(200);
    } finally {
      await fx.close();
      own.dispose();
    }
  });

  it("a ledger that is down at start is migrated on first use once it answers", async () => {
    const own = separateLedger();
    const switchable = switchableClient(own.client);
    switchable.set("down");
    const fx = await libraryFixture({ ledger: { client: switchable.client, migrate: own.migrate } });
    try {
      const cookie = await fx.signIn("ada@example.com");
      await fx.observe({ subject: "owner:ada@example.com", avatarId: "late-1" });
      await expectError(await agree(fx, cookie, "late-1"), 503, "publication_consent_unavailable");
      switchable.set("up");
      expect((await agree(fx, cookie, "late-1")).status).toBe(201);
      expect(await agreements(own.client, "ada@example.com", "late-1")).toHaveLength(1);
    } finally {
      await fx.close();
      own.dispose();
    }
  });

  it("hanging: publish gives up with 503 after the timeout, withdraw still answers 200 promptly", async () => {
    const own = separateLedger();
    await own.migrate();
    const switchable = switchableClient(own.client);
    const fx = await libraryFixture({ ledger: { client: switchable.client, timeoutMs: 300 } });
    try {
      const cookie = await fx.signIn("ada@example.com");
      await fx.observe({ subject: "owner:ada@example.com", avatarId: "hang-1" });
      expect((await agree(fx, cookie, "hang-1")).status).toBe(201);
      switchable.set("hang");
      let started = Date.now();
      await expectError(await put(fx, cookie, "hang-1", { visibility: "public" }), 503, "publication_consent_unavailable");
      expect(Date.now() - started).toBeLessThan(2000);
      started = Date.now();
      expect((await put(fx, cookie, "hang-1", { visibility: "private" })).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      switchable.set("up");
    } finally {
      await fx.close();
      own.dispose();
    }
  });
});

describe("races", () => {
  it("concurrent flips from two portal workers leave library, partition and ledger consistent", async () => {
    // A second worker: its own client on the same database file.
    const client2 = createClient({ url: f.dbUrl, timeout: 5000 });
    const mailer2 = new MemoryMailer();
    const app2 = createPortalApp({ db: client2, secret: TEST_SECRET, mailer: mailer2, log: () => {} });
    const worker2 = f.withApp(app2);
    try {
      const cookie2 = await signInThroughLink(app2, mailer2, "ada@example.com");
      await f.observe({ subject: "owner:ada@example.com", avatarId: "race-v" });
      f.tick();
      await f.observe({ subject: "key:race", owner: "ada@example.com", avatarId: "race-v" });
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const later = <T>(op: () => Promise<T>) =>
        new Promise<T>((resolve, reject) => setTimeout(() => op().then(resolve, reject), Math.floor(random() * 4)));
      const outcomes = new Set<string>();
      for (let round = 0; round < 12; round++) {
        const ops: Promise<Response>[] = [];
        for (let i = 0; i < 6; i++) {
          const [fx, cookie] = i % 2 === 0 ? [f, ada] : [worker2, cookie2];
          if (i % 3 === 0) ops.push(later(() => agree(fx, cookie, "race-v")));
          const visibility = random() < 0.6 ? "public" : "private";
          ops.push(later(() => put(fx, cookie, "race-v", { visibility })));
        }
        const results = await Promise.all(ops);
        for (const r of results) expect([200, 201, 409]).toContain(r.status);

        const rows = await f.client.execute({
          sql: "SELECT visibility FROM avatar_observations WHERE owner = ? AND avatar_id = ?",
          args: ["ada@example.com", "race-v"],
        });
        const states = new Set(rows.rows.map((r) => r.visibility));
        expect(states.size, "every row of the avatar has one visibility").toBe(1);
        const shown = (await mine(f, ada, "race-v")).visibility;
        outcomes.add(shown);
        expect(shown).toBe([...states][0]);
        expect(await isListedPublic(f, bob, "race-v")).toBe(shown === "public");
        if (shown === "public") {
          // Public only ever with an agreement that stands (withdrawals flushed first).
          await f.call(ada, "POST", "/auth/avatars/no-such/publication-consent");
          const standing = (await agreements(f.client, "ada@example.com", "race-v")).filter((r) => r.withdrawn_at === null);
          expect(standing.length).toBeGreaterThan(0);
        }
      }
      expect([...outcomes].sort()).toEqual(["private", "public"]);
    } finally {
      client2.close();
    }
  });

  it("a withdrawal logged while a publish reads the ledger makes the publish 409 (no flip on a withdrawn agreement)", async () => {
    const own = separateLedger();
    await own.migrate();
    let during: (() => Promise<unknown>) | null = null;
    // The ledger has found the standing agreement; before the publish acts on it, a `private` from
    // another request goes through (and withdraws it): the flip must not happen.
    const client = new Proxy(own.client, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== "execute" || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
        return async (stmt: unknown) => {
          const text = JSON.stringify(stmt);
          const result = await value.call(target, stmt);
          if (during && text.includes("publication_consents") && text.toLowerCase().includes('withdrawn_at\\" is null')) {
            const run = during;
            during = null;
            await run();
          }
          return result;
        };
      },
    });
    const fx = await libraryFixture({ ledger: { client } });
    try {
      const cookie = await fx.signIn("ada@example.com");
      await fx.observe({ subject: "owner:ada@example.com", avatarId: "guard-1" });
      expect((await agree(fx, cookie, "guard-1")).status).toBe(201);
      let privateStatus = 0;
      during = async () => {
        privateStatus = (await put(fx, cookie, "guard-1", { visibility: "private" })).status;
      };
      await expectError(await put(fx, cookie, "guard-1", { visibility: "public" }), 409, "publication_consent_required");
      expect(during).toBeNull();
      expect(privateStatus).toBe(200);
      expect((await mine(fx, cookie, "guard-1")).visibility).toBe("private");
      expect(await isListedPublic(fx, cookie, "guard-1")).toBe(false);
    } finally {
      await fx.close();
      own.dispose();
    }
  });

  it("publishing racing a withdrawal never ends public on a withdrawn agreement", async () => {
    for (let round = 0; round < 10; round++) {
      const id = `race-w-${round}`;
      await f.observe({ subject: "owner:ada@example.com", avatarId: id });
      expect((await agree(f, ada, id)).status).toBe(201);
      const [pub, priv] = await Promise.all([put(f, ada, id, { visibility: "public" }), put(f, ada, id, { visibility: "private" })]);
      expect(priv.status).toBe(200);
      expect([200, 409]).toContain(pub.status);
      const shown = (await mine(f, ada, id)).visibility;
      const standing = (await agreements(f.client, "ada@example.com", id)).filter((r) => r.withdrawn_at === null);
      if (shown === "public") expect(standing.length).toBeGreaterThan(0);
      expect(await isListedPublic(f, bob, id)).toBe(shown === "public");
    }
  });
});
