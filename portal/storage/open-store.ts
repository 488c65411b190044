// The asset store a Bun/Node entry gives the portal core, from the validated environment
// (PORTAL_STORAGE): `file` under PORTAL_DATA_DIR/assets (default), or `s3`.
import { join, resolve } from "node:path";
import type { AssetStore } from "./asset-store.ts";
import { FileAssetStore } from "./file-store.ts";
import type { AssetUrlSigner } from "./signed-path.ts";

export type StorageConfig = { kind: "file" } | { kind: "s3"; bucket: string; region: string | null; endpoint: string | null };

/** The folder the `file` store keeps media in; a local box archives into the same one (BOX_ASSET_DIR). */
export function assetDir(dataDir: string): string {
  return resolve(join(dataDir, "assets"));
}

export async function assetStoreFactory(cfg: StorageConfig, dataDir: string): Promise<(urls: AssetUrlSigner) => AssetStore> {
  if (cfg.kind === "s3") {
    // Loaded only when used: the AWS SDK is large.
    const { S3AssetStore } = await import("./s3-store.ts");
    const store = new S3AssetStore({ bucket: cfg.bucket, region: cfg.region, endpoint: cfg.endpoint });
    return () => store;
  }
  const dir = assetDir(dataDir);
  return (urls) => new FileAssetStore(dir, urls);
}

/**
 * How the local driver gives its box the same store (box/avatars/archive/): the `file` store's
 * folder as BOX_ASSET_DIR, or the bucket as BOX_ASSET_STORE=s3 + BOX_S3_* (the box signs its
 * writes with its own AWS credential chain). An operator's own BOX_ASSET_STORE/BOX_ASSET_DIR win.
 */
export function boxArchiveEnv(
  cfg: StorageConfig,
  dataDir: string,
  inherited: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  if (inherited.BOX_ASSET_STORE || inherited.BOX_ASSET_DIR) return {};
  if (cfg.kind === "file") return { BOX_ASSET_DIR: assetDir(dataDir) };
  return {
    BOX_ASSET_STORE: "s3",
    BOX_S3_BUCKET: cfg.bucket,
    ...(cfg.region ? { BOX_S3_REGION: cfg.region } : {}),
    ...(cfg.endpoint ? { BOX_S3_ENDPOINT: cfg.endpoint } : {}),
  };
}
