// `DELETE /auth/avatars/{id}`: the erase result and its `status` (pending until a box drained the
// `prepared_avatar` order, then complete), every subject of the person erased, archived media,
// the publication agreement withdrawn, partitions, odd and reserved ids, and racing erasures.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Value } from "@sinclair/typebox/value";
import { drainEraseOrders } from "../../box/avatars/own/shared-records.ts";
import type { ArchivedMedia } from "./archived-media.ts";
import { json, libraryFixture, type LibraryFixture } from "../testing/library-fixture.ts";
import { EraseResult } from "../../shared/wire/library.ts";

const mediaCalls: [string, string, readonly string[]][] = [];
let mediaFails = false;
const media: ArchivedMedia = {
  async erase(owner, avatarId, subjects) {
    if (mediaFails) throw new Error("store unreachable (test)");
    mediaCalls.push([owner, avatarId, [...subjects].sort()]);
  },
};

let f: LibraryFixture;
let ada: string;
let bob: string;

beforeAll(async () => {
  f = await libraryFixture({ archivedMedia: media });
  ada = await f.signIn("ada@example.com");
  bob = await f.signIn("bob@example.com");
});
afterAll(() => f.close());

const erase = (cookie: string, id: string) => f.call(cookie, "DELETE", `/auth/avatars/${id}`);
const ids = async (cookie: string, path = "/auth/avatars") =>
  ((await json(await f.call(cookie, "GET", path))).avatars as { avatar_id: string }[]).map((a) => a.avatar_id);
const orders = async (owner: string, id: string) =>
  (
    await f.client.execute({
      sql: "SELECT subject, done_at FROM avatar_erase_orders WHERE owner = ? AND avatar_id = ? ORDER BY id",
      args: [owner, id],
    })
  ).rows;

async function publish(cookie: string, id: string) {
  expect((await f.call(cookie, "POST", `/auth/avatars/${id}/publication-consent`)).status).toBe(201);
  expect((await f.call(cookie, "PUT", `/auth/avatars/${id}/visibility`, { visibility: "public" })).status).toBe(200);
}

const PENDING = { status: "pending", erased: ["registry_record", "public_listing", "archived_media"], pending: ["prepared_avatar"] };
const COMPLETE = { status: "complete", erased: ["registry_record", "public_listing", "archived_media", "prepared_avatar"], pending: [] };

describe("DELETE /auth/avatars/{id}", () => {
  it("erases the library rows (every subject), the public listing and archived media at once; orders the box", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "gone" });
    f.tick();
    await f.observe({ subject: "key:ada-laptop", owner: "ada@example.com", avatarId: "gone" });
    await publish(ada, "gone");
    expect(await ids(bob, "/auth/avatars/public")).toContain("gone");

    const res = await erase(ada, "gone");
    expect(res.status).toBe(202);
    const body = await json(res);
    expect(body).toEqual({ avatar_id: "gone", ...PENDING });
    expect(Value.Check(EraseResult, body)).toBe(true);
    expect(await ids(ada)).not.toContain("gone");
    expect(await ids(bob, "/auth/avatars/public")).not.toContain("gone");
    expect(mediaCalls.at(-1)).toEqual(["ada@example.com", "gone", ["key:ada-laptop", "owner:ada@example.com"]]);
    expect((await orders("ada@example.com", "gone")).map((o) => [o.subject, o.done_at]).sort()).toEqual([
      ["key:ada-laptop", null],
      ["owner:ada@example.com", null],
    ]);
    // The agreement to publish is withdrawn with the avatar.
    const agreements = await f.client.execute({
      sql: "SELECT withdrawn_at FROM publication_consents WHERE owner = ? AND avatar_id = ?",
      args: ["ada@example.com", "gone"],
    });
    expect(agreements.rows.map((r) => r.withdrawn_at)).toEqual([expect.any(Number)]);
  });

  it("a running box cannot bring the row back while the order is pending", async () => {
    const box = f.box();
    expect(
      await box.observe({ subject: "owner:ada@example.com", avatarId: "gone", name: "gone", sourceKind: "photo", state: "ready" }),
    ).toBe("erase_pending");
    expect(await ids(ada)).not.toContain("gone");
  });

  it("the same request repeated: pending until a box drained the orders, then complete", async () => {
    const again = await erase(ada, "gone");
    expect(again.status).toBe(202);
    expect(await json(again)).toEqual({ avatar_id: "gone", ...PENDING });
    expect(await orders("ada@example.com", "gone")).toHaveLength(2);

    // The next box to boot drains them (what box/main does at start).
    const drained = await drainEraseOrders(f.box("eu-west-1", "vol-eu"), async () => {});
    expect(drained.map((o) => o.avatarId).filter((id) => id === "gone")).toHaveLength(2);

    const done = await erase(ada, "gone");
    expect(done.status).toBe(202);
    expect(await json(done)).toEqual({ avatar_id: "gone", ...COMPLETE });
    // Still nobody else's business.
    const other = await erase(bob, "gone");
    expect(other.status).toBe(404);
    expect((await json(other)).error.code).toBe("avatar_not_found");
  });

  it("after the drain a new face under the same id is a new avatar: its erasure is pending again", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "gone", upload: true });
    expect(await ids(ada)).toContain("gone");
    // The old agreement was withdrawn with the erasure: the new face needs its own.
    const put = await f.call(ada, "PUT", "/auth/avatars/gone/visibility", { visibility: "public" });
    expect(put.status).toBe(409);
    expect(await json(await erase(ada, "gone"))).toEqual({ avatar_id: "gone", ...PENDING });
    expect((await orders("ada@example.com", "gone")).filter((o) => o.done_at === null)).toHaveLength(1);
  });

  it("another person's avatar: 404 avatar_not_found, exactly like one that never existed, and nothing changes", async () => {
    await f.observe({ subject: "owner:bob@example.com", avatarId: "bobs-face" });
    await publish(bob, "bobs-face");
    const theirs = await erase(ada, "bobs-face");
    const never = await erase(ada, "never-existed");
    expect(theirs.status).toBe(404);
    expect(never.status).toBe(404);
    expect(await theirs.json()).toEqual(await never.json());
    expect(await ids(bob)).toContain("bobs-face");
    expect(await ids(ada, "/auth/avatars/public")).toContain("bobs-face");
    expect(await orders("ada@example.com", "bobs-face")).toHaveLength(0);
    expect(await orders("bob@example.com", "bobs-face")).toHaveLength(0);
    expect(mediaCalls.some(([, id]) => id === "bobs-face")).toBe(false);
  });

  it("the literal ids tones, public and publication-terms: 404, even when a box named an avatar so", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "public" });
    for (const id of ["tones", "public", "publication-terms"]) {
      const res = await erase(ada, id);
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({ error: { code: "avatar_not_found", message: expect.any(String) } });
    }
    expect(await ids(ada)).toContain("public");
    expect(await orders("ada@example.com", "public")).toHaveLength(0);
  });

  it("a dot segment is resolved by the URL itself (no longer an avatar path): still 404", async () => {
    for (const id of ["%2E%2E", "..", "%2e"]) expect((await erase(ada, id)).status, id).toBe(404);
  });

  const odd = [
    "a%2Fb",
    "..%2F..%2Fx",
    "a.b",
    "..a",
    "a..",
    "caf%C3%A9",
    "%F0%9F%98%80",
    "%E0%A4%A",
    "%00",
    "%",
    "x".repeat(300),
    "a/b",
    "a/b/c",
    "gone/visibility/x",
  ];
  for (const id of odd) {
    it(`answers DELETE of ${id.length > 40 ? id.slice(0, 12) + "…" : id} with 404 avatar_not_found (never 500)`, async () => {
      const res = await erase(ada, id);
      expect(res.status).toBe(404);
      expect((await json(res)).error.code).toBe("avatar_not_found");
    });
  }

  it("archived media that cannot be erased now stays pending; the repeat finishes it", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "media-late" });
    mediaFails = true;
    const first = await json(await erase(ada, "media-late"));
    expect(first).toEqual({
      avatar_id: "media-late",
      status: "pending",
      erased: ["registry_record", "public_listing"],
      pending: ["archived_media", "prepared_avatar"],
    });
    mediaFails = false;
    expect(await json(await erase(ada, "media-late"))).toEqual({ avatar_id: "media-late", ...PENDING });
    expect(mediaCalls.at(-1)).toEqual(["ada@example.com", "media-late", ["owner:ada@example.com"]]);
  });

  it("works with the consent ledger off", async () => {
    const off = await libraryFixture({ ledger: null });
    try {
      const cookie = await off.signIn("ada@example.com");
      await off.observe({ subject: "owner:ada@example.com", avatarId: "off-erase" });
      const res = await off.call(cookie, "DELETE", "/auth/avatars/off-erase");
      expect(res.status).toBe(202);
      expect((await json(res)).status).toBe("pending");
    } finally {
      await off.close();
    }
  });

  it("consent for an avatar being erased: 404 avatar_not_found, and no agreement is left standing", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "erasing" });
    await erase(ada, "erasing");
    const res = await f.call(ada, "POST", "/auth/avatars/erasing/publication-consent");
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe("avatar_not_found");
    const vis = await f.call(ada, "PUT", "/auth/avatars/erasing/visibility", { visibility: "private" });
    expect(vis.status).toBe(404);
  });

  it("answers PUT, POST and PATCH on an avatar path with 404 avatar_not_found", async () => {
    for (const method of ["PUT", "POST", "PATCH"]) {
      const res = await f.call(ada, method, "/auth/avatars/some-id", {});
      expect(res.status, method).toBe(404);
      expect((await json(res)).error.code).toBe("avatar_not_found");
    }
  });
});

describe("races", () => {
  it("concurrent erasures of one avatar: every answer 202, one pending order per subject", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "race-e" });
    await f.observe({ subject: "key:race-e", owner: "ada@example.com", avatarId: "race-e" });
    const results = await Promise.all(Array.from({ length: 12 }, () => erase(ada, "race-e")));
    for (const r of results) {
      expect(r.status).toBe(202);
      expect(await json(r)).toEqual({ avatar_id: "race-e", ...PENDING });
    }
    expect((await orders("ada@example.com", "race-e")).map((o) => o.subject).sort()).toEqual(["key:race-e", "owner:ada@example.com"]);
  });

  it("erasure racing publication and agreement: never public, never an agreement left standing", async () => {
    for (let round = 0; round < 8; round++) {
      const id = `race-ep-${round}`;
      await f.observe({ subject: "owner:ada@example.com", avatarId: id });
      expect((await f.call(ada, "POST", `/auth/avatars/${id}/publication-consent`)).status).toBe(201);
      const [put, agree, del] = await Promise.all([
        f.call(ada, "PUT", `/auth/avatars/${id}/visibility`, { visibility: "public" }),
        f.call(ada, "POST", `/auth/avatars/${id}/publication-consent`),
        erase(ada, id),
      ]);
      expect([200, 404, 409]).toContain(put.status);
      expect([201, 404]).toContain(agree.status);
      expect(del.status).toBe(202);
      expect(await ids(ada)).not.toContain(id);
      expect(await ids(bob, "/auth/avatars/public")).not.toContain(id);
      const rows = await f.client.execute({ sql: "SELECT count(*) AS n FROM avatar_observations WHERE avatar_id = ?", args: [id] });
      expect(Number(rows.rows[0].n)).toBe(0);
      const standing = await f.client.execute({
        sql: "SELECT count(*) AS n FROM publication_consents WHERE avatar_id = ? AND withdrawn_at IS NULL",
        args: [id],
      });
      expect(Number(standing.rows[0].n), `round ${round}`).toBe(0);
    }
  });
});
