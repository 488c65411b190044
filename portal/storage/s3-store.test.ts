// The `s3` store against a local S3-compatible server (s3rver, which checks SigV4 like S3): put,
// list, delete by prefix (every key in the folder, whatever its name), presigned GET URLs fetched
// with plain fetch (path-style), refused once expired or tampered; the assets route signing with
// it; a store that fails is 502.
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { avatarPrefix, clipKey, portraitKey } from "../../shared/asset-layout/asset-keys.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { archivedMediaOf } from "./asset-store.ts";
import { S3AssetStore } from "./s3-store.ts";
import { LOCAL_S3_CREDENTIALS, startLocalS3, type LocalS3 } from "./testing/local-s3.ts";

const BUCKET = "avatar-media";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 500 }, (_, i) => i % 256)]);
const MP4 = new Uint8Array(Array.from({ length: 20_000 }, (_, i) => (i * 7) % 256));

let s3: LocalS3;
let store: S3AssetStore;
const storeAt = (o: Partial<ConstructorParameters<typeof S3AssetStore>[0]> = {}) =>
  new S3AssetStore({ bucket: BUCKET, endpoint: s3.endpoint, region: "us-east-1", credentials: LOCAL_S3_CREDENTIALS, ...o });

beforeAll(async () => {
  s3 = await startLocalS3([BUCKET]);
  store = storeAt();
});
afterAll(() => s3?.close());

describe("S3AssetStore on a local S3 server", () => {
  it("puts an object, presigns a path-style GET URL, and plain fetch gets the bytes", async () => {
    const key = await portraitKey("ada@example.com", "ada");
    await store.put(key, PNG, "image/png");
    const url = await store.signedGetUrl(key, 120);
    const u = new URL(url);
    expect(u.origin).toBe(s3.endpoint);
    expect(u.pathname).toBe(`/${BUCKET}/${key}`);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
      "X-Amz-Expires": "120",
      "X-Amz-SignedHeaders": "host",
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  });

  it("refuses an expired URL, a tampered signature and a signature moved to another key", async () => {
    const key = await clipKey("ada@example.com", "ada", "happy");
    await store.put(key, MP4, "video/mp4");
    // Signed two minutes ago for one minute: already dead when fetched.
    const past = storeAt({ now: () => new Date(Date.now() - 120_000) });
    const expired = await fetch(await past.signedGetUrl(key, 60));
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/expired/i);

    const good = await store.signedGetUrl(key, 60);
    expect((await fetch(good)).status).toBe(200);
    const sig = new URL(good).searchParams.get("X-Amz-Signature")!;
    const tampered = good.replace(
      sig,
      sig.replace(/^./, (c) => (c === "0" ? "1" : "0")),
    );
    expect((await fetch(tampered)).status).toBe(403);
    const other = await portraitKey("ada@example.com", "ada");
    expect((await fetch(good.replace(key, other))).status).toBe(403);
    const longer = good.replace("X-Amz-Expires=60", "X-Amz-Expires=600");
    expect((await fetch(longer)).status).toBe(403);
  });

  it("lists by prefix with sizes and times; deletes by prefix (archived_media), leaving the rest", async () => {
    const ada = await avatarPrefix("ada@example.com", "ada");
    const bob = await portraitKey("bob@example.com", "ada");
    await store.put(bob, PNG, "image/png");
    const listed = await store.list(ada);
    expect(listed).toEqual([
      { key: ada + "clip-happy.mp4", size_bytes: MP4.length, updated_at: expect.any(Number) },
      { key: ada + "portrait.png", size_bytes: PNG.length, updated_at: expect.any(Number) },
    ]);
    expect(Math.abs(listed[0].updated_at - Date.now() / 1000)).toBeLessThan(120);
    await archivedMediaOf(store).erase("ada@example.com", "ada");
    expect(await store.list(ada)).toEqual([]);
    expect((await store.list("avatars/")).map((o) => o.key)).toEqual([bob]);
    await archivedMediaOf(store).erase("ada@example.com", "ada"); // twice: nothing there is fine
  });

  it("erasure removes every key in the avatar's folder, names outside the layout included", async () => {
    const ada = await avatarPrefix("ada@example.com", "ada");
    const adam = await avatarPrefix("ada@example.com", "adam");
    await store.put(ada + "portrait.png", PNG, "image/png");
    // Names the layout does not have (store.put refuses them, so straight through the S3 API).
    const foreign = [
      ada + "clip-happy.mp4.part-1234",
      ada + "Notes From Ops.TXT",
      ada + ".hidden",
      ada + "old/deep/clip-sad.mp4",
      ada + "clip-unknowntone.mp4",
    ];
    for (const Key of [...foreign, adam + "portrait.png"])
      await store.client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: PNG }));
    const keysUnder = async (Prefix: string) =>
      ((await store.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix }))).Contents ?? []).map((o) => o.Key);
    expect(await keysUnder(ada)).toHaveLength(foreign.length + 1);

    await archivedMediaOf(store).erase("ada@example.com", "ada");
    expect(await keysUnder(ada)).toEqual([]);
    expect(await keysUnder(adam)).toEqual([adam + "portrait.png"]); // a folder whose name starts the same stays
  });

  it("erasure pages through a long folder and deletes every page (ContinuationToken, DeleteObjects)", async () => {
    // Pages as S3 pages them (see below for why not s3rver's), names of every kind among them.
    const keys = Array.from({ length: 25 }, (_, i) => (i % 3 === 0 ? `many/odd name ${i}.bin` : `many/k${String(i).padStart(2, "0")}.png`));
    const deleted: string[] = [];
    const client = {
      send: async (cmd: ListObjectsV2Command | DeleteObjectsCommand) => {
        if (cmd instanceof DeleteObjectsCommand) {
          deleted.push(...(cmd.input.Delete?.Objects ?? []).map((o) => o.Key!));
          return { Deleted: cmd.input.Delete?.Objects, Errors: [] };
        }
        const from = Number(cmd.input.ContinuationToken ?? 0);
        const next = from + 10 < keys.length ? String(from + 10) : undefined;
        return {
          Contents: keys.slice(from, from + 10).map((Key) => ({ Key, Size: 10, LastModified: new Date(0) })),
          IsTruncated: next !== undefined,
          NextContinuationToken: next,
        };
      },
    } as unknown as S3Client;
    await new S3AssetStore({ bucket: BUCKET, client }).delete("many/");
    expect(deleted).toEqual(keys);
  });

  it("pages through long listings (ContinuationToken)", async () => {
    // s3rver's continuation tokens are DES-encrypted, which OpenSSL 3 refuses (an InternalError):
    // the pages come from a client that answers ListObjectsV2 as S3 pages it.
    const keys = Array.from({ length: 25 }, (_, i) => `many/k${String(i).padStart(2, "0")}.png`);
    const seen: (string | undefined)[] = [];
    const client = {
      send: async (cmd: ListObjectsV2Command) => {
        seen.push(cmd.input.ContinuationToken);
        const from = Number(cmd.input.ContinuationToken ?? 0);
        const page = keys.slice(from, from + 10);
        const next = from + 10 < keys.length ? String(from + 10) : undefined;
        return {
          Contents: page.map((Key) => ({ Key, Size: 10, LastModified: new Date(0) })),
          IsTruncated: next !== undefined,
          NextContinuationToken: next,
        };
      },
    } as unknown as S3Client;
    const paged = new S3AssetStore({ bucket: BUCKET, client });
    expect((await paged.list("many/")).map((o) => o.key)).toEqual(keys);
    expect(seen).toEqual([undefined, "10", "20"]);
  });

  it("a missing bucket or wrong credentials are store failures with retryable and status", async () => {
    const missing = storeAt({ bucket: "no-such-bucket" });
    await expect(missing.list("avatars/")).rejects.toMatchObject({ name: "AssetStoreError", status: 502, retryable: false });
    const wrong = storeAt({ credentials: { accessKeyId: "S3RVER", secretAccessKey: "wrong" } });
    await expect(wrong.put("avatars/x/portrait.png", PNG, "image/png")).rejects.toMatchObject({
      name: "AssetStoreError",
      retryable: false,
    });
    expect(s3.refused.at(-1)).toMatchObject({ why: "SignatureDoesNotMatch" });
    expect(await store.list("avatars/x/")).toEqual([]);
  });
});

describe("GET /auth/avatars/{id}/assets on the s3 store", () => {
  let portal: TestPortal;
  let cookie: string;

  beforeAll(async () => {
    portal = await createTestPortal({ assetStore: () => store });
    cookie = await portal.signIn("cy@example.com");
    await portal.client.execute(
      "INSERT INTO avatar_observations (subject, avatar_id, owner, name, state, created_at, updated_at) VALUES ('owner:cy@example.com', 'cy', 'cy@example.com', 'cy.jpg', 'ready', 1, 1)",
    );
    await store.put(await portraitKey("cy@example.com", "cy"), PNG, "image/png");
    await store.put(await clipKey("cy@example.com", "cy", "neutral"), MP4, "video/mp4");
  });
  afterAll(() => portal?.close());

  it("answers presigned bucket URLs that plain fetch opens", async () => {
    const res = await portal.app.request("/auth/avatars/cy/assets", { headers: { cookie } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.assets.map((a: { filename: string }) => a.filename)).toEqual(["portrait.png", "clip-neutral.mp4"]);
    for (const [a, bytes] of [
      [body.assets[0], PNG],
      [body.assets[1], MP4],
    ] as const) {
      expect(a.url.startsWith(`${s3.endpoint}/${BUCKET}/avatars/`)).toBe(true);
      expect(new URL(a.url).searchParams.get("X-Amz-Expires")).toBe(String(body.expires_in));
      expect(new Uint8Array(await (await fetch(a.url)).arrayBuffer())).toEqual(bytes);
    }
  });

  it("a store that does not answer is 502 asset_store_failed", async () => {
    const down = await createTestPortal({ assetStore: () => storeAt({ endpoint: "http://127.0.0.1:9" }) });
    const c = await down.signIn("cy@example.com");
    await down.client.execute(
      "INSERT INTO avatar_observations (subject, avatar_id, owner, name, state, created_at, updated_at) VALUES ('owner:cy@example.com', 'cy', 'cy@example.com', 'cy.jpg', 'ready', 1, 1)",
    );
    const res = await down.app.request("/auth/avatars/cy/assets", { headers: { cookie: c } });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { code: "asset_store_failed", message: expect.any(String) } });
    await down.close();
  });
});
