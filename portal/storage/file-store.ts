// Implements: the `file` asset store (PORTAL_STORAGE=file, the embedded default): objects are plain
// files under `PORTAL_DATA_DIR/assets/<key>`, served by the portal at signed paths (signed-path.ts).
// A local box writes the same folder (BOX_ASSET_DIR, box/avatars/archive/) the same way: a temp
// name beginning with a dot in the target folder, then rename(2), so a reader never sees half a file.
// Node/Bun only (node:fs): injected from portal/server.ts.
import { statSync } from "node:fs";
import { open, readdir, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { isAssetKey } from "../../shared/asset-layout/asset-keys.ts";
import { assetPath, writeAssetFile } from "../../shared/asset-layout/asset-files.ts";
import { AssetStoreError, type AssetHandle, type AssetObject, type ServedAssetStore } from "./asset-store.ts";
import type { AssetUrlSigner } from "./signed-path.ts";

const SEGMENT = /^[a-z0-9](?:[a-z0-9_-]|\.(?=[a-z0-9])){0,127}$/;
/** A folder changed this recently may change again within its clock's resolution: not cached. */
const SETTLED_MS = 2_000;
const MAX_CACHED = 10_000;

interface CachedListing {
  /** Milliseconds with a sub-microsecond fraction: a plain stat costs a third of a `bigint` one. */
  mtimeMs: number;
  objects: AssetObject[];
}

export class FileAssetStore implements ServedAssetStore {
  readonly kind = "file" as const;
  readonly root: string;
  /**
   * Listings of folders with no subfolder (an avatar's), kept while the folder's mtime stands:
   * every writer (this store, a box's FolderSink) adds, replaces and removes files by rename or
   * unlink, which moves the folder's mtime. One stat instead of a read of the folder per request.
   */
  private readonly listings = new Map<string, CachedListing>();

  constructor(
    root: string,
    private readonly urls: AssetUrlSigner,
  ) {
    this.root = resolve(root);
  }

  /** The file of a key; keys are checked, and the path is checked again to stay inside the root. */
  private pathOf(key: string): string {
    return assetPath(this.root, key);
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    this.pathOf(key); // a bad key is the caller's fault (a plain Error), not a store failure
    await writeAssetFile(this.root, key, bytes).catch((err: Error) => {
      throw new AssetStoreError(`could not write ${key} to the asset folder: ${err.message}`, false, { cause: err });
    });
  }

  async list(prefix: string): Promise<AssetObject[]> {
    // Walk only the folder the prefix names (its part up to the last `/`), then match whole keys.
    const cut = prefix.lastIndexOf("/");
    const base = cut < 0 ? "" : prefix.slice(0, cut);
    if (base && !isAssetKey(base)) return [];
    const whole = base !== "" && prefix === base + "/";
    let mtimeMs: number | null = null;
    if (whole) {
      const s = statSync(this.pathOf(base), { throwIfNoEntry: false });
      if (!s) return [];
      mtimeMs = s.mtimeMs;
      const hit = this.listings.get(base);
      if (hit && hit.mtimeMs === mtimeMs) return hit.objects.slice();
    }
    const out: AssetObject[] = [];
    const sawFolder = await this.walk(base, prefix, out);
    out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    if (whole && mtimeMs !== null && !sawFolder && Date.now() - mtimeMs > SETTLED_MS) {
      if (this.listings.size >= MAX_CACHED) this.listings.clear();
      this.listings.set(base, { mtimeMs, objects: out.slice() });
    }
    return out;
  }

  /** Adds the matching files under `dirKey` to `out`; true when it met a subfolder. */
  private async walk(dirKey: string, prefix: string, out: AssetObject[]): Promise<boolean> {
    const dir = dirKey ? this.pathOf(dirKey) : this.root;
    const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "ENOTDIR") return [];
      throw new AssetStoreError(`could not list the asset folder: ${err.message}`, true, { cause: err });
    });
    let sawFolder = false;
    for (const e of entries) {
      if (!SEGMENT.test(e.name)) continue; // temp files (leading dot) and anything not a key
      const key = dirKey ? `${dirKey}/${e.name}` : e.name;
      if (e.isDirectory()) {
        sawFolder = true;
        if (key.startsWith(prefix) || prefix.startsWith(key + "/")) await this.walk(key, prefix, out);
      } else if (e.isFile() && key.startsWith(prefix) && isAssetKey(key)) {
        const s = await stat(join(dir, e.name)).catch(() => null);
        if (s) out.push({ key, size_bytes: s.size, updated_at: Math.floor(s.mtimeMs / 1000) });
      }
    }
    return sawFolder;
  }

  async delete(prefix: string): Promise<void> {
    if (!prefix) throw new Error("refusing to delete every object: give a prefix");
    try {
      if (prefix.endsWith("/") && isAssetKey(prefix.slice(0, -1))) {
        await rm(this.pathOf(prefix.slice(0, -1)), { recursive: true, force: true });
        return;
      }
      for (const o of await this.list(prefix)) await rm(this.pathOf(o.key), { force: true });
    } catch (err) {
      if (err instanceof AssetStoreError) throw err;
      throw new AssetStoreError(`could not delete ${prefix} from the asset folder: ${(err as Error).message}`, true, { cause: err });
    }
  }

  signedGetUrl(key: string, expiresIn: number): Promise<string> {
    return this.urls.url(key, expiresIn);
  }

  async open(key: string): Promise<AssetHandle | null> {
    const fh = await open(this.pathOf(key), "r").catch(() => null);
    if (!fh) return null;
    const s = await fh.stat();
    if (!s.isFile()) {
      await fh.close();
      return null;
    }
    return {
      size: s.size,
      updatedAt: Math.floor(s.mtimeMs / 1000),
      // One handle from open to the last byte: a file replaced meanwhile is served whole, old or new.
      body: (range) =>
        Readable.toWeb(
          fh.createReadStream({ start: range?.start ?? 0, end: range?.end ?? Math.max(0, s.size - 1), autoClose: true }),
        ) as unknown as ReadableStream<Uint8Array>,
      close: () => fh.close(),
    };
  }
}
