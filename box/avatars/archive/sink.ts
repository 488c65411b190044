// Where a box puts archived media (BOX_ASSET_STORE): a folder the portal's `file` store reads
// (BOX_ASSET_DIR; the embedded default, where both processes share a disk), or the S3 bucket the
// portal's `s3` store reads (production). Keys follow shared/asset-layout/asset-keys.ts.
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { assetPath, writeAssetFile } from "../../../shared/asset-layout/asset-files.ts";
import { isAssetKey } from "../../../shared/asset-layout/asset-keys.ts";
import type { BoxEnv } from "../../env.ts";

export interface ArchiveSink {
  /** Where the media goes, in words (log lines). */
  readonly where: string;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Takes a key back out (an erase order arrived while it was written); none there is success. */
  remove(key: string): Promise<void>;
}

/**
 * Plain files under `root/<key>`, written the way the portal's FileAssetStore writes them: a temp
 * name with a leading dot (never listed as a key) in the target folder, then rename(2).
 */
export class FolderSink implements ArchiveSink {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  get where(): string {
    return `folder ${this.root}`;
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    return writeAssetFile(this.root, key, bytes);
  }

  async remove(key: string): Promise<void> {
    await rm(assetPath(this.root, key), { force: true });
  }
}

/** PutObject into the bucket; path-style when an endpoint is set. Credentials: the box's own AWS chain. */
export class S3Sink implements ArchiveSink {
  private client: Promise<import("@aws-sdk/client-s3").S3Client> | null = null;

  constructor(private readonly o: { bucket: string; region: string | null; endpoint: string | null }) {}

  get where(): string {
    return `bucket ${this.o.bucket}${this.o.endpoint ? ` at ${this.o.endpoint}` : ""}`;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    if (!isAssetKey(key)) throw new Error(`not an asset key: ${JSON.stringify(key).slice(0, 80)}`);
    const { PutObjectCommand } = await import("@aws-sdk/client-s3");
    const client = await (this.client ??= this.makeClient());
    await client.send(new PutObjectCommand({ Bucket: this.o.bucket, Key: key, Body: bytes, ContentType: contentType }));
  }

  /** Needs `s3:DeleteObject` on `avatars/*`; without it the archiver logs that it could not. */
  async remove(key: string): Promise<void> {
    if (!isAssetKey(key)) throw new Error(`not an asset key: ${JSON.stringify(key).slice(0, 80)}`);
    const { DeleteObjectCommand } = await import("@aws-sdk/client-s3");
    const client = await (this.client ??= this.makeClient());
    await client.send(new DeleteObjectCommand({ Bucket: this.o.bucket, Key: key }));
  }

  private async makeClient() {
    // Loaded at the first archive: the SDK is large and most boxes archive a few files an hour.
    const { S3Client } = await import("@aws-sdk/client-s3");
    const region = this.o.region ?? (this.o.endpoint ? "us-east-1" : undefined);
    return new S3Client({
      ...(region ? { region } : {}),
      ...(this.o.endpoint ? { endpoint: this.o.endpoint, forcePathStyle: true } : {}),
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }
}

export function openArchiveSink(cfg: BoxEnv["assetArchive"]): ArchiveSink | null {
  if (cfg.kind === "file") return new FolderSink(cfg.dir);
  if (cfg.kind === "s3") return new S3Sink(cfg);
  return null;
}
