// The `file` store's behaviour without a disk: the Web-standard core's default (a runtime with no
// filesystem, and tests). Objects live as long as the process; URLs are signed paths like `file`'s.
import { isAssetKey } from "../../shared/asset-layout/asset-keys.ts";
import type { AssetHandle, AssetObject, ServedAssetStore } from "./asset-store.ts";
import type { AssetUrlSigner } from "./signed-path.ts";

interface Entry {
  bytes: Uint8Array;
  contentType: string;
  updatedAt: number;
}

export class MemoryAssetStore implements ServedAssetStore {
  readonly kind = "memory" as const;
  private readonly objects = new Map<string, Entry>();

  constructor(
    private readonly urls: AssetUrlSigner,
    /** Epoch seconds. */
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    if (!isAssetKey(key)) throw new Error(`not an asset key: ${JSON.stringify(key).slice(0, 80)}`);
    this.objects.set(key, { bytes: bytes.slice(), contentType, updatedAt: this.now() });
  }

  async list(prefix: string): Promise<AssetObject[]> {
    return [...this.objects]
      .filter(([k]) => k.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, e]) => ({ key, size_bytes: e.bytes.length, updated_at: e.updatedAt }));
  }

  async delete(prefix: string): Promise<void> {
    if (!prefix) throw new Error("refusing to delete every object: give a prefix");
    for (const k of [...this.objects.keys()]) if (k.startsWith(prefix)) this.objects.delete(k);
  }

  signedGetUrl(key: string, expiresIn: number): Promise<string> {
    return this.urls.url(key, expiresIn);
  }

  async open(key: string): Promise<AssetHandle | null> {
    const e = this.objects.get(key);
    if (!e) return null;
    return {
      size: e.bytes.length,
      updatedAt: e.updatedAt,
      body: (range) => (range ? e.bytes.subarray(range.start, range.end + 1) : e.bytes),
      close: async () => undefined,
    };
  }
}
