// `GET /auth/avatars` and `GET /auth/avatars/public`: every field of the record from what boxes
// observed, one record per avatar id when a person has it under several credentials, partitions
// by identity, no e-mail in the public partition, and the literal paths beside `{id}`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Value } from "@sinclair/typebox/value";
import { json, libraryFixture, type LibraryFixture } from "../testing/library-fixture.ts";
import { LibraryRecord, PublicLibraryRecord } from "../../shared/wire/library.ts";

let f: LibraryFixture;
let ada: string;
let bob: string;

beforeAll(async () => {
  f = await libraryFixture();
  ada = await f.signIn("ada@example.com");
  bob = await f.signIn("bob@example.com");
});
afterAll(() => f.close());

const list = async (cookie: string) => (await json(await f.call(cookie, "GET", "/auth/avatars"))).avatars as Record<string, any>[];
const listPublic = async (cookie: string) =>
  (await json(await f.call(cookie, "GET", "/auth/avatars/public"))).avatars as Record<string, any>[];

describe("GET /auth/avatars", () => {
  it("answers an empty list for a person with nothing observed", async () => {
    const res = await f.call(await f.signIn("nobody@example.com"), "GET", "/auth/avatars");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ avatars: [] });
  });

  it("lists every field of what a box observed, visibility always present, no URLs", async () => {
    await f.box("eu-west-1", "vol-eu").observe({
      subject: "owner:ada@example.com",
      avatarId: "ada-portrait",
      name: "Ada portrait.jpg",
      sourceKind: "photo",
      state: "ready",
      detail: "Prepared from a photo.",
    });
    const [record] = (await list(ada)).filter((a) => a.avatar_id === "ada-portrait");
    expect(record).toEqual({
      avatar_id: "ada-portrait",
      name: "Ada portrait.jpg",
      source_kind: "photo",
      state: "ready",
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      prepared_in_region: "eu-west-1",
      weights_volume: "vol-eu",
      detail: "Prepared from a photo.",
      visibility: "private",
    });
    expect(Value.Check(LibraryRecord, record)).toBe(true);
    expect(JSON.stringify(record)).not.toMatch(/https?:|url/i);
  });

  it("shows a key-subject row under the key owner's e-mail, and never rows without an owner", async () => {
    await f.observe({ subject: "key:0123abcd", owner: "ada@example.com", avatarId: "from-key" });
    await f.observe({ subject: "open", avatarId: "open-box-face" });
    const ids = (await list(ada)).map((a) => a.avatar_id);
    expect(ids).toContain("from-key");
    expect(ids).not.toContain("open-box-face");
    expect((await list(bob)).map((a) => a.avatar_id)).not.toContain("open-box-face");
  });

  it("shows one record per avatar id: the newest observation among the person's credentials", async () => {
    const older = f.box("us-east-1", "vol-old");
    const newer = f.box("ap-southeast-2", "vol-new");
    await older.observe({ subject: "owner:ada@example.com", avatarId: "twice", name: "twice.png", sourceKind: "image", state: "ready" });
    f.tick();
    await newer.observe({
      subject: "key:feedbeef",
      owner: "ada@example.com",
      avatarId: "twice",
      name: "twice-again.png",
      sourceKind: "photo",
      state: "preparing",
    });
    const rows = (await list(ada)).filter((a) => a.avatar_id === "twice");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: "twice-again.png",
      state: "preparing",
      prepared_in_region: "ap-southeast-2",
      weights_volume: "vol-new",
    });
    // The older row observed again becomes the newest and is shown.
    f.tick();
    await older.observe({
      subject: "owner:ada@example.com",
      avatarId: "twice",
      name: "ignored",
      sourceKind: "image",
      state: "failed",
      detail: "gone",
    });
    const [again] = (await list(ada)).filter((a) => a.avatar_id === "twice");
    expect(again).toMatchObject({ name: "twice.png", state: "failed", prepared_in_region: "us-east-1", detail: "gone" });
  });

  it("lists oldest first and never another person's rows, even with the same avatar id", async () => {
    await f.observe({ subject: "owner:bob@example.com", avatarId: "ada-portrait", name: "bob's own ada-portrait" });
    const mine = await list(ada);
    const created = mine.map((a) => a.created_at);
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(mine.find((a) => a.avatar_id === "ada-portrait")!.name).toBe("Ada portrait.jpg");
    const bobs = await list(bob);
    expect(bobs).toHaveLength(1);
    expect(bobs[0].name).toBe("bob's own ada-portrait");
  });

  it("needs a signed-in person (401 unwrapped)", async () => {
    const res = await f.app.request("/auth/avatars");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: "missing_api_key", message: expect.any(String) });
  });

  it("answers other methods with 405", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await f.call(ada, method, "/auth/avatars", {});
      expect(res.status, method).toBe(405);
      expect((await json(res)).error.code).toBe("method_not_allowed");
    }
  });
});

describe("GET /auth/avatars/public", () => {
  it("is the shared partition: every published row, `mine` on the caller's own, no e-mail anywhere", async () => {
    await f.observe({
      subject: "owner:ada@example.com",
      avatarId: "pub-ada",
      name: "ada@example.com.jpg",
      detail: "uploaded by ada@example.com",
    });
    await f.observe({ subject: "owner:bob@example.com", avatarId: "pub-bob" });
    await f.observe({ subject: "owner:bob@example.com", avatarId: "bob-private" });
    // Published through the real route (agreement first).
    for (const [cookie, id] of [
      [ada, "pub-ada"],
      [bob, "pub-bob"],
    ] as const) {
      expect((await f.call(cookie, "POST", `/auth/avatars/${id}/publication-consent`)).status).toBe(201);
      expect((await f.call(cookie, "PUT", `/auth/avatars/${id}/visibility`, { visibility: "public" })).status).toBe(200);
    }
    const seenByAda = await listPublic(ada);
    expect(seenByAda.map((a) => [a.avatar_id, a.mine])).toEqual([
      ["pub-ada", true],
      ["pub-bob", false],
    ]);
    for (const r of seenByAda) expect(Value.Check(PublicLibraryRecord, r)).toBe(true);
    const seenByBob = await listPublic(bob);
    expect(seenByBob.map((a) => [a.avatar_id, a.mine])).toEqual([
      ["pub-ada", false],
      ["pub-bob", true],
    ]);
    const body = JSON.stringify(seenByBob);
    expect(body).not.toContain("@");
    expect(body).not.toMatch(/owner|subject/);
    expect(seenByBob[0].name).toBe("[address hidden]");
    expect(seenByBob[0].detail).toBe("uploaded by [address hidden]");
    // The owner's own library keeps the name as given.
    expect((await list(ada)).find((a) => a.avatar_id === "pub-ada")!.name).toBe("ada@example.com.jpg");
  });

  it("shows an avatar held under two credentials once, as its owner's library shows it", async () => {
    await f.observe({ subject: "owner:bob@example.com", avatarId: "bob-two" });
    f.tick();
    await f.observe({ subject: "key:b0b", owner: "bob@example.com", avatarId: "bob-two", name: "newest" });
    expect((await f.call(bob, "POST", "/auth/avatars/bob-two/publication-consent")).status).toBe(201);
    expect((await f.call(bob, "PUT", "/auth/avatars/bob-two/visibility", { visibility: "public" })).status).toBe(200);
    const rows = (await listPublic(ada)).filter((a) => a.avatar_id === "bob-two");
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toBe("newest");
    // A new upload under one credential makes the shown row private again (the box's rule): gone from the partition.
    f.tick();
    await f.observe({
      subject: "key:b0b",
      owner: "bob@example.com",
      avatarId: "bob-two",
      name: "newest",
      upload: true,
      state: "preparing",
    });
    expect((await listPublic(ada)).some((a) => a.avatar_id === "bob-two")).toBe(false);
    expect((await list(bob)).find((a) => a.avatar_id === "bob-two")!.visibility).toBe("private");
  });

  it("answers other methods with 405 and DELETE with the erase route's 404", async () => {
    expect((await f.call(ada, "POST", "/auth/avatars/public", {})).status).toBe(405);
    const del = await f.call(ada, "DELETE", "/auth/avatars/public");
    expect(del.status).toBe(404);
    expect((await json(del)).error.code).toBe("avatar_not_found");
  });
});

describe("literal paths beside /auth/avatars/{id}", () => {
  it("are not captured by the {id} routes", async () => {
    const tones = await f.call(ada, "GET", "/auth/avatars/tones");
    expect(tones.status).toBe(200);
    expect((await json(tones)).tones.length).toBeGreaterThan(0);
    const terms = await f.call(ada, "GET", "/auth/avatars/publication-terms");
    expect(terms.status).toBe(200);
    expect((await json(terms)).terms.version).toEqual(expect.any(String));
    expect((await f.call(ada, "GET", "/auth/avatars/public")).status).toBe(200);
  });

  it("an avatar whose id is a literal is listed, and cannot be erased here (404)", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "tones" });
    expect((await list(ada)).some((a) => a.avatar_id === "tones")).toBe(true);
    for (const id of ["tones", "public", "publication-terms"]) {
      const res = await f.call(ada, "DELETE", `/auth/avatars/${id}`);
      expect(res.status, id).toBe(404);
      expect((await json(res)).error.code).toBe("avatar_not_found");
    }
    expect((await list(ada)).some((a) => a.avatar_id === "tones")).toBe(true);
  });
});
