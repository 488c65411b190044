// `GET /auth/avatars/{id}/assets`: the portrait and each generated clip of the caller's avatar with
// URLs that open without a session and die after `expires_in`; other people's avatars, missing
// ones and ids no box makes (slashes, dots, percent-encoding, unicode) are all the same 404
// `avatar_not_found`; erasure's `archived_media` removes the folder.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { avatarPrefix, clipKey, portraitKey } from "../../shared/asset-layout/asset-keys.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { archivedMediaOf, type AssetStore } from "../storage/asset-store.ts";

const T0 = Date.UTC(2030, 5, 1);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9, 9, 9]);
const MP4 = (n: number) => new Uint8Array(Array.from({ length: n }, (_, i) => i % 256));

let portal: TestPortal;
let store: AssetStore;
let clock = T0;
let ada: string;
let bob: string;

async function observe(subject: string, avatarId: string, owner: string | null) {
  await portal.client.execute({
    sql: "INSERT INTO avatar_observations (subject, avatar_id, owner, name, state, created_at, updated_at) VALUES (?, ?, ?, ?, 'ready', 1, 1)",
    args: [subject, avatarId, owner, `${avatarId}.jpg`],
  });
}

const assets = (cookie: string | null, id: string) =>
  portal.app.request(`/auth/avatars/${id}/assets`, { headers: cookie ? { cookie } : {} });

beforeAll(async () => {
  portal = await createTestPortal({ now: () => clock });
  store = portal.app.services.assets;
  ada = await portal.signIn("ada@example.com");
  bob = await portal.signIn("bob@example.com");
  await observe("owner:ada@example.com", "ada-face", "ada@example.com");
  await observe("owner:ada@example.com", "empty", "ada@example.com");
  await observe("owner:bob@example.com", "bob-face", "bob@example.com");
  // One id, two people: each sees only their own media.
  await observe("owner:ada@example.com", "twin", "ada@example.com");
  await observe("owner:bob@example.com", "twin", "bob@example.com");
  // A face uploaded with a static box key has no person behind it: nobody's.
  await observe("open", "orphan", null);
  await store.put(await clipKey("ada@example.com", "ada-face", "happy"), MP4(300), "video/mp4");
  await store.put(await portraitKey("ada@example.com", "ada-face"), PNG, "image/png");
  await store.put(await clipKey("ada@example.com", "ada-face", "neutral"), MP4(200), "video/mp4");
  await store.put((await avatarPrefix("ada@example.com", "ada-face")) + "notes.txt", PNG, "text/plain"); // not in the layout
  await store.put(await portraitKey("ada@example.com", "twin"), PNG, "image/png");
  await store.put(await portraitKey("bob@example.com", "twin"), MP4(10), "image/png");
  await store.put(await portraitKey("bob@example.com", "bob-face"), PNG, "image/png");
});
afterAll(() => portal.close());

describe("GET /auth/avatars/{id}/assets", () => {
  it("lists the portrait, then each clip in tone order, with sizes, times and signed URLs", async () => {
    const res = await assets(ada, "ada-face");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toEqual({
      avatar_id: "ada-face",
      expires_in: 900,
      assets: [
        {
          kind: "image",
          filename: "portrait.png",
          size_bytes: PNG.length,
          updated_at: T0 / 1000,
          url: expect.stringMatching(/^http:\/\/localhost\/auth\/assets\/avatars\/[0-9a-f]{64}\/ada-face\/portrait\.png\?exp=\d+&sig=/),
        },
        { kind: "video", filename: "clip-neutral.mp4", size_bytes: 200, updated_at: T0 / 1000, url: expect.any(String) },
        { kind: "video", filename: "clip-happy.mp4", size_bytes: 300, updated_at: T0 / 1000, url: expect.any(String) },
      ],
    });
    expect(JSON.stringify(body)).not.toContain("ada@example.com");
    // The URLs open with no session at all, and carry the bytes.
    const got = await portal.app.request(body.assets[2].url);
    expect(got.status).toBe(200);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(MP4(300));
  });

  it("the URLs die after expires_in seconds", async () => {
    const { assets: list, expires_in } = await (await assets(ada, "ada-face")).json();
    clock = T0 + expires_in * 1000;
    expect((await portal.app.request(list[0].url)).status).toBe(200);
    clock = T0 + (expires_in + 1) * 1000;
    const dead = await portal.app.request(list[0].url);
    expect([dead.status, (await dead.json()).error.code]).toEqual([404, "asset_not_found"]);
    clock = T0;
  });

  it("an avatar of yours with nothing archived yet lists no assets", async () => {
    expect(await (await assets(ada, "empty")).json()).toEqual({ avatar_id: "empty", assets: [], expires_in: 900 });
  });

  it("one id, two people: each gets their own media", async () => {
    const a = await (await assets(ada, "twin")).json();
    const b = await (await assets(bob, "twin")).json();
    expect([a.assets[0].size_bytes, b.assets[0].size_bytes]).toEqual([PNG.length, 10]);
    expect(a.assets[0].url).not.toBe(b.assets[0].url);
  });

  it("another person's avatar is the same 404 as one that never existed", async () => {
    const theirs = await assets(bob, "ada-face");
    const none = await assets(bob, "never-was");
    expect(theirs.status).toBe(404);
    expect(none.status).toBe(404);
    const [a, b] = [await theirs.json(), await none.json()];
    expect(a).toEqual({ error: { code: "avatar_not_found", message: expect.any(String) } });
    expect(a.error.message.replace("ada-face", "X")).toBe(b.error.message.replace("never-was", "X"));
    expect((await assets(ada, "bob-face")).status).toBe(404);
    // Published (the shared partition lists it) is still not Ada's: its media stay Bob's.
    await portal.client.execute("UPDATE avatar_observations SET visibility = 'public' WHERE avatar_id = 'bob-face'");
    expect((await assets(ada, "bob-face")).status).toBe(404);
    expect((await assets(bob, "bob-face")).status).toBe(200);
    expect((await assets(ada, "orphan")).status).toBe(404);
  });

  const badIds = [
    ["a slash", "ada-face/x"],
    ["an encoded slash", "ada-face%2Fx"],
    ["an encoded slash in the owner's folder style", "..%2F..%2Fada-face"],
    ["a double-encoded slash", "ada-face%252F"],
    ["dots", "ada.face"],
    ["a dot-dot", ".."],
    ["an encoded dot-dot", "%2e%2e"],
    ["unicode", "caf%C3%A9"],
    ["CJK", "%E5%86%99%E7%9C%9F"],
    ["upper case", "ADA-FACE"],
    ["a trailing space", "ada-face%20"],
    ["a NUL", "ada-face%00"],
    ["65 characters", "a".repeat(65)],
    ["a literal route word", "tones"],
    ["another literal", "public"],
  ];
  for (const [what, id] of badIds) {
    it(`an id with ${what} is 404, never another answer`, async () => {
      const res = await assets(ada, id);
      expect(res.status).toBe(404);
      const body = await res.json();
      // Ids the URL parser rewrites into another path (`..`) miss every route; all the rest are the avatar 404.
      expect(["avatar_not_found", "not_found", "asset_not_found"]).toContain(body.error.code);
      if (!id.includes("..") && !id.includes("%2e")) expect(body.error.code).toBe("avatar_not_found");
    });
  }

  it("needs a signed-in person; writes are 405", async () => {
    expect((await assets(null, "ada-face")).status).toBe(401);
    expect((await portal.app.request("/auth/avatars/ada-face/assets", { method: "POST", headers: { cookie: ada } })).status).toBe(405);
  });

  it("erasure's archived_media removes that avatar's folder and nothing else", async () => {
    await archivedMediaOf(store).erase("ada@example.com", "twin", ["owner:ada@example.com"]);
    expect((await (await assets(ada, "twin")).json()).assets).toEqual([]);
    expect((await (await assets(bob, "twin")).json()).assets.length).toBe(1);
    expect((await (await assets(ada, "ada-face")).json()).assets.length).toBe(3);
    await archivedMediaOf(store).erase("ada@example.com", "not/an/id"); // nothing to do, no error
  });
});
