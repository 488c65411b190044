// Archiving on the box, without a box: the settings (BOX_ASSET_STORE, BOX_ASSET_DIR, BOX_S3_*),
// the owner behind a credential subject, the folder sink's writes, and the archiver's promise:
// a failure is retried, logged and swallowed; the newest file for a key is the one that lands.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { portraitKey } from "../../../shared/asset-layout/asset-keys.ts";
import type { KeyTable } from "../../auth/key-table.ts";
import { readBoxEnv } from "../../env.ts";
import { AvatarArchiver } from "./archiver.ts";
import { FolderSink, S3Sink, openArchiveSink, type ArchiveSink } from "./sink.ts";
import { ownerResolver } from "./wire.ts";

const work = mkdtempSync(join(tmpdir(), "archive-unit-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

describe("box archive settings", () => {
  const archive = (env: Record<string, string>) => readBoxEnv(env).assetArchive;
  it("off unless a store is named; BOX_ASSET_DIR alone means the folder", () => {
    expect(archive({})).toEqual({ kind: "off" });
    expect(archive({ BOX_ASSET_STORE: "off", BOX_ASSET_DIR: "/x" })).toEqual({ kind: "off" });
    expect(archive({ BOX_ASSET_DIR: "/srv/portal/assets" })).toEqual({ kind: "file", dir: "/srv/portal/assets" });
    expect(archive({ BOX_ASSET_STORE: "file", BOX_ASSET_DIR: "/a" })).toEqual({ kind: "file", dir: "/a" });
    expect(
      archive({ BOX_ASSET_STORE: "s3", BOX_S3_BUCKET: "media", BOX_S3_REGION: "eu-west-1", BOX_S3_ENDPOINT: "http://127.0.0.1:9000/" }),
    ).toEqual({
      kind: "s3",
      bucket: "media",
      region: "eu-west-1",
      endpoint: "http://127.0.0.1:9000",
    });
    expect(archive({ BOX_ASSET_STORE: "s3", BOX_S3_BUCKET: "media" })).toEqual({
      kind: "s3",
      bucket: "media",
      region: null,
      endpoint: null,
    });
  });
  it("refuses what it cannot use", () => {
    expect(() => archive({ BOX_ASSET_STORE: "file" })).toThrow(/BOX_ASSET_DIR/);
    expect(() => archive({ BOX_ASSET_STORE: "s3" })).toThrow(/BOX_S3_BUCKET/);
    expect(() => archive({ BOX_ASSET_STORE: "ftp" })).toThrow(/BOX_ASSET_STORE/);
    expect(() => archive({ BOX_ASSET_STORE: "s3", BOX_S3_BUCKET: "m", BOX_S3_ENDPOINT: "nohost" })).toThrow();
  });
  it("opens the matching sink", () => {
    expect(openArchiveSink({ kind: "off" })).toBeNull();
    expect(openArchiveSink({ kind: "file", dir: work })).toBeInstanceOf(FolderSink);
    expect(openArchiveSink({ kind: "s3", bucket: "b", region: null, endpoint: null })).toBeInstanceOf(S3Sink);
  });
});

describe("the owner behind a subject", () => {
  const keyTable = {
    lookup: (d: string) => (d === "d1" ? { owner: "key-owner@x.test" } : d === "d2" ? { owner: null } : null),
  } as unknown as KeyTable;
  const ownerOf = ownerResolver(keyTable);
  it("is the e-mail of an owner: subject, a portal key's owner, else nobody", async () => {
    expect(await ownerOf("owner:ada@x.test")).toBe("ada@x.test");
    expect(await ownerOf("key:d1")).toBe("key-owner@x.test");
    expect(await ownerOf("key:d2")).toBeNull(); // a static BOX_API_KEYS key
    expect(await ownerOf("key:unknown")).toBeNull();
    expect(await ownerOf("open")).toBeNull();
    expect(await ownerResolver(null)("key:d1")).toBeNull();
  });
});

describe("FolderSink", () => {
  it("writes the key's path whole (temp dot-file, then rename) and refuses keys that leave the folder", async () => {
    const root = join(work, "sink");
    const sink = new FolderSink(root);
    await sink.put("avatars/ab/ada/portrait.png", PNG);
    expect(new Uint8Array(readFileSync(join(root, "avatars/ab/ada/portrait.png")))).toEqual(PNG);
    expect(readdirSync(join(root, "avatars/ab/ada"))).toEqual(["portrait.png"]);
    for (const bad of ["../x.png", "a/../../x.png", "/etc/x", ".x"]) await expect(sink.put(bad, PNG), bad).rejects.toThrow();
    expect(existsSync(join(work, "x.png"))).toBe(false);
  });

  it("removes a key's file (none there is fine) and refuses keys that leave the folder", async () => {
    const root = join(work, "sink-remove");
    const sink = new FolderSink(root);
    await sink.put("avatars/ab/ada/clip-happy.mp4", PNG);
    await sink.remove("avatars/ab/ada/clip-happy.mp4");
    expect(existsSync(join(root, "avatars/ab/ada/clip-happy.mp4"))).toBe(false);
    await sink.remove("avatars/ab/ada/clip-happy.mp4");
    writeFileSync(join(work, "keep.png"), "x");
    await expect(sink.remove("../keep.png")).rejects.toThrow();
    expect(existsSync(join(work, "keep.png"))).toBe(true);
  });
});

describe("AvatarArchiver", () => {
  const logs: { level: string; msg: string; extra: Record<string, unknown> }[] = [];
  const log = (level: string, msg: string, extra: Record<string, unknown>) => void logs.push({ level, msg, extra });

  it("archives a person's portrait under the layout's key; skips a subject with no person", async () => {
    const put: string[] = [];
    const sink: ArchiveSink = { where: "memory", put: async (k) => void put.push(k), remove: async () => {} };
    const a = new AvatarArchiver({ sink, ownerOf: async (s) => (s === "owner:ada@x.test" ? "ada@x.test" : null), log });
    expect(await a.portrait("owner:ada@x.test", "ada", PNG)).toBe(true);
    expect(await a.portrait("open", "ada", PNG)).toBe(false);
    expect(put).toEqual([await portraitKey("ada@x.test", "ada")]);
  });

  it("retries a failing store, then logs and resolves false: never throws", async () => {
    logs.length = 0;
    let tries = 0;
    const sink: ArchiveSink = {
      where: "broken",
      put: async () => {
        tries++;
        throw new Error("disk full");
      },
      remove: async () => {},
    };
    const a = new AvatarArchiver({ sink, ownerOf: async () => "ada@x.test", retryDelaysMs: [1, 1], log });
    expect(await a.clip("owner:ada@x.test", "ada", "happy", PNG)).toBe(false);
    expect(tries).toBe(3);
    expect(logs.map((l) => `${l.level} ${l.msg}`)).toEqual([
      "warn avatar media archive failed; retrying",
      "warn avatar media archive failed; retrying",
      "error avatar media not archived",
    ]);
    expect(logs[2].extra).toMatchObject({ avatar: "ada", what: "clip happy", to: "broken", error: "disk full" });
    // An owner lookup that fails is the same: logged, false.
    const b = new AvatarArchiver({ sink, ownerOf: async () => Promise.reject(new Error("db down")), log });
    expect(await b.portrait("key:x", "ada", PNG)).toBe(false);
    // A real folder that cannot be made.
    const blocked = join(work, "blocked");
    writeFileSync(blocked, "file");
    const c = new AvatarArchiver({ sink: new FolderSink(blocked), ownerOf: async () => "ada@x.test", retryDelaysMs: [], log });
    expect(await c.portrait("owner:ada@x.test", "ada", PNG)).toBe(false);
  });

  it("writes one key at a time, and only the newest of several waiting lands", async () => {
    const landed: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sink: ArchiveSink = {
      where: "slow",
      put: async (_k, bytes) => {
        if (bytes[0] === 1) await gate;
        landed.push(bytes[0]);
      },
      remove: async () => {},
    };
    const a = new AvatarArchiver({ sink, ownerOf: async () => "ada@x.test", log });
    const first = a.portrait("owner:ada@x.test", "ada", new Uint8Array([1]));
    await new Promise((r) => setTimeout(r, 5));
    const second = a.portrait("owner:ada@x.test", "ada", new Uint8Array([2]));
    const third = a.portrait("owner:ada@x.test", "ada", new Uint8Array([3]));
    await new Promise((r) => setTimeout(r, 20)); // both queued behind the first
    release();
    expect([await first, await second, await third]).toEqual([true, false, true]);
    expect(landed).toEqual([1, 3]);
    await a.idle();
  });

  it("archives nothing for an avatar with a pending erase order, and takes back a file that landed as the order was made", async () => {
    logs.length = 0;
    const stored = new Map<string, Uint8Array>();
    const orders = new Set<string>();
    let orderDuringPut: string | null = null;
    const sink: ArchiveSink = {
      where: "memory",
      put: async (k, bytes) => {
        stored.set(k, bytes);
        // The portal's DELETE lands while the bytes travel (after its own erase of the media).
        if (orderDuringPut) orders.add(orderDuringPut);
      },
      remove: async (k) => void stored.delete(k),
    };
    const a = new AvatarArchiver({
      sink,
      ownerOf: async () => "ada@x.test",
      erasePending: async (s, id) => orders.has(`${s}/${id}`),
      retryDelaysMs: [],
      log,
    });
    orders.add("owner:ada@x.test/gone");
    expect(await a.portrait("owner:ada@x.test", "gone", PNG)).toBe(false);
    expect(await a.clip("owner:ada@x.test", "gone", "happy", PNG)).toBe(false);
    expect(stored.size).toBe(0);
    // Another subject's avatar of the same id is not held up.
    expect(await a.portrait("owner:bob@x.test", "gone", PNG)).toBe(true);
    expect([...stored.keys()]).toEqual([await portraitKey("ada@x.test", "gone")]);
    stored.clear();

    orderDuringPut = "owner:ada@x.test/racing";
    expect(await a.clip("owner:ada@x.test", "racing", "happy", PNG)).toBe(false);
    expect(stored.size).toBe(0);
    expect(logs.map((l) => l.msg)).toContain("avatar media withdrawn: the avatar was erased through the portal while it was archived");
  });

  it("an erase check that cannot be answered is a failed attempt: retried, never a write", async () => {
    logs.length = 0;
    const put: string[] = [];
    const sink: ArchiveSink = { where: "memory", put: async (k) => void put.push(k), remove: async () => {} };
    const a = new AvatarArchiver({
      sink,
      ownerOf: async () => "ada@x.test",
      erasePending: async () => Promise.reject(new Error("database locked")),
      retryDelaysMs: [1],
      log,
    });
    expect(await a.clip("owner:ada@x.test", "ada", "happy", PNG)).toBe(false);
    expect(put).toEqual([]);
    expect(logs.map((l) => `${l.level} ${l.msg}`)).toEqual([
      "warn avatar media archive failed; retrying",
      "error avatar media not archived",
    ]);
  });
});
