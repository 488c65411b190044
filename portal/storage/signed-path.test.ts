// The stores the portal serves itself (`file`, and `memory` the core's default), through the whole
// app: a signed path serves the bytes with no session; a tampered signature, path or expiry, a
// signature replayed on another path and an expired link are all 404 `asset_not_found` (never 403);
// keys cannot leave the store's folder; list/delete by prefix.
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { archivedMediaOf, isServed, type AssetStore } from "./asset-store.ts";
import { FileAssetStore } from "./file-store.ts";
import { MemoryAssetStore } from "./memory-store.ts";
import type { AssetUrlSigner } from "./signed-path.ts";
import { FolderSink } from "../../box/avatars/archive/sink.ts";

const T0 = Date.UTC(2030, 0, 1); // ms
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
const MP4 = new Uint8Array(Array.from({ length: 4096 }, (_, i) => i % 251));
const A = "avatars/0123456789abcdef/ada/portrait.png";
const B = "avatars/0123456789abcdef/ada/clip-happy.mp4";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const kinds: [string, (urls: AssetUrlSigner) => AssetStore][] = [
  [
    "file",
    (urls) => {
      const dir = mkdtempSync(join(tmpdir(), "assets-"));
      dirs.push(dir);
      return new FileAssetStore(dir, urls);
    },
  ],
  ["memory", (urls) => new MemoryAssetStore(urls)],
];

describe.each(kinds)("the %s store's signed paths", (_kind, make) => {
  let portal: TestPortal;
  let clock = T0;
  let store: AssetStore;

  beforeAll(async () => {
    portal = await createTestPortal({ now: () => clock, assetStore: make });
    store = portal.app.services.assets;
    await store.put(A, PNG, "image/png");
    await store.put(B, MP4, "video/mp4");
  });
  afterAll(() => portal.close());
  beforeEach(() => {
    clock = T0;
  });

  const get = (url: string, init?: RequestInit) => portal.app.request(url, init);
  const refused = async (res: Response) => {
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "asset_not_found", message: expect.any(String) } });
  };

  it("serves the bytes at a signed path, with no session, its type and a private cache lifetime", async () => {
    expect(isServed(store)).toBe(true);
    const url = await store.signedGetUrl(A, 300);
    expect(url).toMatch(/^\/auth\/assets\/avatars\/0123456789abcdef\/ada\/portrait\.png\?exp=\d+&sig=[A-Za-z0-9_-]{43}$/);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-length")).toBe(String(PNG.length));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  });

  it("answers HEAD and single byte ranges (video seeking)", async () => {
    const url = await store.signedGetUrl(B, 300);
    const head = await get(url, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), head.headers.get("content-type")]).toEqual([200, "4096", "video/mp4"]);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const part = await get(url, { headers: { range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 100-199/4096");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(MP4.subarray(100, 200));
    const tail = await get(url, { headers: { range: "bytes=-10" } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(MP4.subarray(4086));
    const open = await get(url, { headers: { range: "bytes=4000-" } });
    expect(open.headers.get("content-range")).toBe("bytes 4000-4095/4096");
    const beyond = await get(url, { headers: { range: "bytes=5000-" } });
    expect([beyond.status, beyond.headers.get("content-range")]).toEqual([416, "bytes */4096"]);
  });

  it("refuses a tampered signature", async () => {
    const url = await store.signedGetUrl(A, 300);
    const sig = new URL(url, "http://x").searchParams.get("sig")!;
    const flipped = sig.slice(0, 10) + (sig[10] === "A" ? "B" : "A") + sig.slice(11);
    await refused(await get(url.replace(sig, flipped)));
    await refused(await get(url.replace(/&sig=.*/, ""))); // none
    await refused(await get(url.replace(sig, sig.toLowerCase() === sig ? sig.toUpperCase() : sig.toLowerCase())));
  });

  it("refuses a tampered path (another key, or the same key spelled another way)", async () => {
    const url = await store.signedGetUrl(A, 300);
    const query = url.slice(url.indexOf("?"));
    await refused(await get(`/auth/assets/${B}${query}`)); // exists, but this signature is A's
    await refused(await get(`/auth/assets/avatars/0123456789abcdef/ada/PORTRAIT.png${query}`));
    await refused(await get(`/auth/assets/avatars%2F0123456789abcdef%2Fada%2Fportrait.png${query}`));
    await refused(await get(`/auth/assets//avatars/0123456789abcdef/ada/portrait.png${query}`));
  });

  it("refuses a tampered expiry", async () => {
    const url = await store.signedGetUrl(A, 300);
    const exp = Number(new URL(url, "http://x").searchParams.get("exp"));
    await refused(await get(url.replace(`exp=${exp}`, `exp=${exp + 3600}`)));
    await refused(await get(url.replace(`exp=${exp}`, `exp=${exp}0`)));
    await refused(await get(url.replace(`exp=${exp}`, "exp=")));
  });

  it("refuses a signature replayed on another path", async () => {
    const a = new URL(await store.signedGetUrl(A, 300), "http://x");
    const b = new URL(await store.signedGetUrl(B, 300), "http://x");
    // Both links are good on their own paths ...
    expect((await get(a.pathname + a.search)).status).toBe(200);
    expect((await get(b.pathname + b.search)).status).toBe(200);
    // ... and neither signature opens the other's path.
    await refused(await get(b.pathname + a.search));
    await refused(await get(a.pathname + b.search));
  });

  it("serves until the expiry second, then refuses it as expired", async () => {
    const url = await store.signedGetUrl(A, 60);
    clock = T0 + 60_000;
    expect((await get(url)).status).toBe(200);
    clock = T0 + 61_000;
    const res = await get(url);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toEqual({ code: "asset_not_found", message: expect.stringMatching(/expired/) });
  });

  it("a valid link to an object erased since is the same 404; other methods are 405; nothing answers 403", async () => {
    const key = "avatars/0123456789abcdef/gone/portrait.png";
    await store.put(key, PNG, "image/png");
    const url = await store.signedGetUrl(key, 300);
    expect((await get(url)).status).toBe(200);
    await archivedMediaOf(store).erase("nobody@example.com", "gone"); // another owner's folder: untouched
    expect((await get(url)).status).toBe(200);
    await store.delete("avatars/0123456789abcdef/gone/");
    await refused(await get(url));
    const post = await get(url, { method: "POST" });
    expect(post.status).toBe(405);
    for (const path of ["/auth/assets/", "/auth/assets", "/auth/assets/x?exp=1&sig=" + "A".repeat(43)]) await refused(await get(path));
  });

  it("never makes or serves a key outside the store", async () => {
    for (const bad of [
      "../x.png",
      "a/../../x.png",
      "/etc/passwd",
      "a//b.png",
      ".hidden/x.png",
      "a/.x.png",
      "a/b/",
      "A/B.png",
      "a\\b.png",
      "a/%2e%2e/b.png",
      "ü/x.png",
      "",
      "a/" + "b".repeat(200),
    ]) {
      await expect(store.put(bad, PNG, "image/png"), bad).rejects.toThrow();
      await expect(store.signedGetUrl(bad, 60), bad).rejects.toThrow();
    }
    // Dot segments are resolved by the URL parser before routing: they never reach the store.
    for (const p of [
      "/auth/assets/../../../../etc/passwd",
      "/auth/assets/%2e%2e/%2e%2e/etc/passwd",
      "/auth/assets/avatars/..%2f..%2f..%2fetc/passwd",
    ]) {
      expect((await get(`${p}?exp=9999999999&sig=${"A".repeat(43)}`)).status, p).toBe(404);
    }
    await expect(store.signedGetUrl(A, 0)).rejects.toThrow();
    await expect(store.signedGetUrl(A, 8 * 24 * 3600)).rejects.toThrow();
  });

  it("lists by prefix with sizes and times, and deletes by prefix", async () => {
    const p = "avatars/fedcba9876543210/bo/";
    await store.put(p + "portrait.png", PNG, "image/png");
    await store.put(p + "clip-sad.mp4", MP4, "video/mp4");
    await store.put("avatars/fedcba9876543210/bob/portrait.png", PNG, "image/png");
    expect(await store.list(p)).toEqual([
      { key: p + "clip-sad.mp4", size_bytes: MP4.length, updated_at: expect.any(Number) },
      { key: p + "portrait.png", size_bytes: PNG.length, updated_at: expect.any(Number) },
    ]);
    expect((await store.list("avatars/fedcba9876543210/bo")).map((o) => o.key)).toEqual([
      p + "clip-sad.mp4",
      p + "portrait.png",
      "avatars/fedcba9876543210/bob/portrait.png",
    ]);
    await store.delete(p);
    expect(await store.list(p)).toEqual([]);
    expect((await store.list("avatars/fedcba9876543210/")).map((o) => o.key)).toEqual(["avatars/fedcba9876543210/bob/portrait.png"]);
    await store.delete("avatars/nothing-here/");
    await expect(store.delete("")).rejects.toThrow();
  });
});

describe("the file store on disk", () => {
  it("keeps media as plain files under its folder, written whole, and lists no temp files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "assets-"));
    dirs.push(dir);
    const portal = await createTestPortal({ assetStore: (urls) => new FileAssetStore(join(dir, "assets"), urls) });
    const store = portal.app.services.assets;
    await store.put(A, PNG, "image/png");
    expect(readdirSync(join(dir, "assets/avatars/0123456789abcdef/ada"))).toEqual(["portrait.png"]);
    // A writer cut off mid-write (the box's or the portal's) leaves a dot-file: never a key.
    writeFileSync(join(dir, "assets/avatars/0123456789abcdef/ada/.abc123.tmp"), "half");
    expect((await store.list("avatars/")).map((o) => o.key)).toEqual([A]);
    await portal.close();
  });

  it("an avatar folder's listing is remembered only while the folder is unchanged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "assets-"));
    dirs.push(dir);
    const portal = await createTestPortal({ assetStore: (urls) => new FileAssetStore(dir, urls) });
    const store = portal.app.services.assets;
    const folder = "avatars/0123456789abcdef/ada/";
    await store.put(A, PNG, "image/png");
    const settle = () => utimesSync(join(dir, folder), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    settle();
    expect((await store.list(folder)).map((o) => o.size_bytes)).toEqual([PNG.length]);
    expect((await store.list(folder)).map((o) => o.size_bytes)).toEqual([PNG.length]); // from memory
    // A box writes beside the portal (temp file, then rename): the folder's mtime moves.
    const sink = new FolderSink(dir);
    await sink.put(B, MP4);
    expect((await store.list(folder)).map((o) => o.key)).toEqual([B, A]);
    settle();
    await store.list(folder);
    await sink.put(A, MP4); // replaced by rename: a new size
    expect((await store.list(folder)).map((o) => o.size_bytes)).toEqual([MP4.length, MP4.length]);
    settle();
    await store.list(folder);
    await store.delete(folder);
    expect(await store.list(folder)).toEqual([]);
    await portal.close();
  });
});
