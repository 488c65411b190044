// The box's side of the avatar tables: consent checks against attestations the portal writes,
// observation upserts, erase orders drained at boot, and the box.db fallback without a shared database.
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UpstreamError } from "../../../shared/errors/api-error.ts";
import { migrateKeyTable } from "../../../shared/key-table/migrate.ts";
import { avatarEraseOrders, avatarObservations, uploadAttestations } from "../../../shared/avatar-tables/schema.ts";
import { openBoxDb } from "../../db/client.ts";
import { drainEraseOrders, openSharedRecords, ownerEmailOf, type AvatarObservation } from "./shared-records.ts";

const DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const OTHER = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752";

const dirs: string[] = [];
const closers: Array<() => void> = [];
afterEach(() => {
  closers.splice(0).forEach((c) => c());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "shared-records-"));
  dirs.push(dir);
  return dir;
}

/** The shared database as the portal leaves it (key table migrated), a portal-side client, and a box's records on it. */
async function sharedSetup(clock = { t: 1000 }) {
  const url = `file:${join(tempDir(), "portal.db")}`;
  const portal = createClient({ url, timeout: 5000 });
  closers.push(() => portal.close());
  await portal.execute("PRAGMA journal_mode = WAL");
  await migrateKeyTable(portal);
  const boxDb = createClient({ url: ":memory:" });
  closers.push(() => boxDb.close());
  const records = await openSharedRecords(url, boxDb, { region: "eu-west-1", volume: "vol-1", now: () => clock.t });
  closers.push(() => records.close());
  return { portal: drizzle(portal), records, clock };
}

const alice = (over: Partial<AvatarObservation> = {}): AvatarObservation => ({
  subject: "owner:alice@example.test",
  avatarId: "alice",
  name: "alice.png",
  sourceKind: "photo",
  state: "preparing",
  upload: true,
  ...over,
});

async function observation(portal: ReturnType<typeof drizzle>, subject: string, avatarId = "alice") {
  const rows = await portal.select().from(avatarObservations);
  return rows.find((r) => r.subject === subject && r.avatarId === avatarId) ?? null;
}

describe("consent (upload attestations the portal writes)", () => {
  it("ok for the attested bytes, mismatch for other or missing bytes, missing for an unknown or absent token", async () => {
    const { portal, records } = await sharedSetup();
    await portal.insert(uploadAttestations).values({ consentId: "cons_1", sha256: DIGEST, attestedAt: 900, sourceKind: "photo" });
    expect(await records.attestation("cons_1")).toEqual({ consentId: "cons_1", sha256: DIGEST, attestedAt: 900, sourceKind: "photo" });
    expect(await records.checkConsent("cons_1", DIGEST)).toBe("ok");
    expect(await records.checkConsent("cons_1", DIGEST.toUpperCase())).toBe("ok");
    expect(await records.checkConsent("cons_1", OTHER)).toBe("mismatch");
    expect(await records.checkConsent("cons_1", null)).toBe("mismatch");
    expect(await records.checkConsent("cons_2", DIGEST)).toBe("missing");
    expect(await records.checkConsent("", DIGEST)).toBe("missing");
    expect(await records.checkConsent(null, DIGEST)).toBe("missing");
    expect(await records.attestation("cons_2")).toBeNull();
    expect(records.shared).toBe(true);
  });
});

describe("observations (the portal library's rows)", () => {
  it("insert, then update keeps created_at and name and moves updated_at", async () => {
    const { portal, records, clock } = await sharedSetup();
    expect(await records.observe(alice({ consentId: "cons_1" }))).toBe("written");
    expect(await observation(portal, "owner:alice@example.test")).toEqual({
      subject: "owner:alice@example.test",
      avatarId: "alice",
      owner: "alice@example.test",
      name: "alice.png",
      sourceKind: "photo",
      state: "preparing",
      preparedInRegion: "eu-west-1",
      weightsVolume: "vol-1",
      detail: "",
      consentId: "cons_1",
      visibility: "private",
      createdAt: 1000,
      updatedAt: 1000,
    });
    clock.t = 1042;
    expect(
      await records.observe(
        alice({ name: "renamed.png", state: "ready", detail: "2 faces; took the largest", consentId: "cons_1", upload: false }),
      ),
    ).toBe("written");
    expect(await observation(portal, "owner:alice@example.test")).toMatchObject({
      name: "alice.png",
      state: "ready",
      detail: "2 faces; took the largest",
      createdAt: 1000,
      updatedAt: 1042,
    });
    expect(await portal.$count(avatarObservations)).toBe(1);
  });

  it("keeps the portal's visibility, and a new upload under the same id makes it private again", async () => {
    const { portal, records, clock } = await sharedSetup();
    await records.observe(alice());
    await portal.update(avatarObservations).set({ visibility: "public" });
    clock.t = 1100;
    await records.observe(alice({ state: "ready", upload: false }));
    expect((await observation(portal, "owner:alice@example.test"))?.visibility).toBe("public");
    clock.t = 1200;
    await records.observe(alice({ upload: true, sourceKind: "video" }));
    expect(await observation(portal, "owner:alice@example.test")).toMatchObject({
      visibility: "private",
      sourceKind: "video",
      createdAt: 1000,
    });
  });

  it("two owners with the same avatar id do not collide", async () => {
    const { portal, records } = await sharedSetup();
    await records.observe(alice());
    await records.observe(alice({ subject: "owner:bob@example.test", name: "Alice (bob's)", state: "failed", detail: "no face found" }));
    await records.observe(alice({ subject: "key:abc123", owner: "carol@example.test", sourceKind: "image" }));
    expect(await portal.$count(avatarObservations)).toBe(3);
    expect(await observation(portal, "owner:alice@example.test")).toMatchObject({
      owner: "alice@example.test",
      state: "preparing",
      name: "alice.png",
    });
    expect(await observation(portal, "owner:bob@example.test")).toMatchObject({
      owner: "bob@example.test",
      state: "failed",
      name: "Alice (bob's)",
    });
    expect(await observation(portal, "key:abc123")).toMatchObject({ owner: "carol@example.test", sourceKind: "image" });
  });

  it("an owner e-mail once known survives an observation that cannot name it", async () => {
    const { portal, records } = await sharedSetup();
    await records.observe(alice({ subject: "key:abc123", owner: "carol@example.test" }));
    await records.observe(alice({ subject: "key:abc123", owner: null, state: "ready" }));
    expect(await observation(portal, "key:abc123")).toMatchObject({ owner: "carol@example.test", state: "ready" });
    await records.observe(alice({ subject: "open" }));
    expect((await observation(portal, "open"))?.owner).toBeNull();
  });
});

describe("erase orders (the portal orders, a box drains at boot)", () => {
  it("pending, then done once, by this box; the first box to mark it wins", async () => {
    const { portal, records, clock } = await sharedSetup();
    await portal.insert(avatarEraseOrders).values([
      { subject: "owner:bob@example.test", avatarId: "bob", owner: "bob@example.test", orderedAt: 950 },
      { subject: "owner:alice@example.test", avatarId: "alice", owner: "alice@example.test", orderedAt: 900 },
    ]);
    const pending = await records.pendingEraseOrders();
    expect(pending.map((o) => [o.avatarId, o.subject, o.owner, o.orderedAt])).toEqual([
      ["alice", "owner:alice@example.test", "alice@example.test", 900],
      ["bob", "owner:bob@example.test", "bob@example.test", 950],
    ]);
    clock.t = 2000;
    expect(await records.markEraseDone(pending[0])).toBe(true);
    expect(await records.markEraseDone(pending[0], "another box")).toBe(false);
    expect((await records.pendingEraseOrders()).map((o) => o.avatarId)).toEqual(["bob"]);
    const rows = await portal.select().from(avatarEraseOrders);
    expect(rows.find((r) => r.avatarId === "alice")).toMatchObject({ doneAt: 2000, doneBy: "eu-west-1 vol-1" });
    expect(rows.find((r) => r.avatarId === "bob")).toMatchObject({ doneAt: null, doneBy: null });
  });

  it("while an order is pending a running box cannot bring the erased row back; after the drain it can", async () => {
    const { portal, records } = await sharedSetup();
    await records.observe(alice());
    // The portal's erasure: the library row goes at once, the prepared face becomes an order.
    await portal.delete(avatarObservations);
    await portal
      .insert(avatarEraseOrders)
      .values({ subject: "owner:alice@example.test", avatarId: "alice", owner: "alice@example.test", orderedAt: 1000 });
    expect(await records.observe(alice({ state: "ready", upload: false }))).toBe("erase_pending");
    expect(await portal.$count(avatarObservations)).toBe(0);
    // Another owner's avatar of the same id is not held up.
    expect(await records.observe(alice({ subject: "owner:bob@example.test" }))).toBe("written");

    const erased: string[] = [];
    const done = await drainEraseOrders(records, async (o) => void erased.push(`${o.subject}/${o.avatarId}`));
    expect(erased).toEqual(["owner:alice@example.test/alice"]);
    expect(done).toHaveLength(1);
    expect(await records.pendingEraseOrders()).toEqual([]);
    expect(await records.observe(alice())).toBe("written");
  });

  it("an upload that replaced the erased avatar's files is written at once: the order made from the old row is done", async () => {
    const { portal, records } = await sharedSetup();
    await records.observe(alice());
    await portal.delete(avatarObservations);
    await portal
      .insert(avatarEraseOrders)
      .values({ subject: "owner:alice@example.test", avatarId: "alice", owner: "alice@example.test", orderedAt: 1000 });
    expect(await records.erasePending("owner:alice@example.test", "alice")).toBe(true);
    expect(await records.erasePending("owner:bob@example.test", "alice")).toBe(false);
    // Any other observation still waits for the drain.
    expect(await records.observe(alice({ state: "ready", upload: false }))).toBe("erase_pending");
    expect(await records.observe(alice({ name: "again.png", replacesErased: true }))).toBe("written");
    expect(await observation(portal, "owner:alice@example.test")).toMatchObject({
      name: "again.png",
      state: "preparing",
      visibility: "private",
    });
    expect(await records.erasePending("owner:alice@example.test", "alice")).toBe(false);
    expect(await records.pendingEraseOrders()).toEqual([]);
    expect((await portal.select().from(avatarEraseOrders))[0]).toMatchObject({ doneAt: 1000, doneBy: "eu-west-1 vol-1" });
  });

  it("an erase that fails leaves its order pending for the next boot and the rest still drain", async () => {
    const { portal, records } = await sharedSetup();
    await portal.insert(avatarEraseOrders).values([
      { subject: "owner:a@example.test", avatarId: "stuck", orderedAt: 1 },
      { subject: "owner:a@example.test", avatarId: "fine", orderedAt: 2 },
    ]);
    const failures: string[] = [];
    const done = await drainEraseOrders(
      records,
      async (o) => {
        if (o.avatarId === "stuck") throw new Error("volume busy");
      },
      (o, err) => failures.push(`${o.avatarId}: ${(err as Error).message}`),
    );
    expect(done.map((o) => o.avatarId)).toEqual(["fine"]);
    expect(failures).toEqual(["stuck: volume busy"]);
    expect((await records.pendingEraseOrders()).map((o) => o.avatarId)).toEqual(["stuck"]);
  });
});

describe("without a shared database (BOX_KEY_TABLE_URL unset)", () => {
  it("keeps the tables in box.db beside the box's own migrations; attestations are never found", async () => {
    const boxDb = await openBoxDb(tempDir());
    closers.push(() => boxDb.client.close());
    const records = await openSharedRecords(null, boxDb.client);
    expect(records.shared).toBe(false);
    // Re-opening (a box restart on the same volume) migrates again harmlessly.
    await openSharedRecords(null, boxDb.client);
    const tables = (await boxDb.client.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((r) => String(r.name));
    expect(tables).toEqual(
      expect.arrayContaining([
        "__box_migrations",
        "__avatar_tables_migrations",
        "upload_attestations",
        "avatar_observations",
        "avatar_erase_orders",
        "settings_records",
      ]),
    );
    // Even a row put there by hand is no attestation: nobody attests on this box.
    await drizzle(boxDb.client).insert(uploadAttestations).values({ consentId: "cons_1", sha256: DIGEST, attestedAt: 1 });
    expect(await records.attestation("cons_1")).toBeNull();
    expect(await records.checkConsent("cons_1", DIGEST)).toBe("missing");
    expect(await records.observe(alice())).toBe("written");
    expect(await records.pendingEraseOrders()).toEqual([]);
    records.close();
    // box.db's client belongs to its opener: still usable.
    expect((await boxDb.client.execute("SELECT count(*) AS n FROM avatar_observations")).rows[0].n).toBe(1);
  });
});

describe("failures", () => {
  it("a store failure is an UpstreamError (503, retryable)", async () => {
    const { records } = await sharedSetup();
    records.close();
    const err = await records.observe(alice()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ status: 503, retryable: true });
    await expect(records.checkConsent("cons_1", DIGEST)).rejects.toBeInstanceOf(UpstreamError);
  });

  it("ownerEmailOf reads only a portal-minted credential's subject", () => {
    expect(ownerEmailOf("owner:alice@example.test")).toBe("alice@example.test");
    expect(ownerEmailOf("key:abc")).toBeNull();
    expect(ownerEmailOf("open")).toBeNull();
    expect(ownerEmailOf("owner:")).toBeNull();
  });
});
