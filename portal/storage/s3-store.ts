// Implements: the `s3` asset store (PORTAL_STORAGE=s3): objects in an S3-compatible bucket
// (PORTAL_S3_BUCKET, PORTAL_S3_REGION, PORTAL_S3_ENDPOINT with path-style addressing when set),
// credentials from the AWS SDK's usual chain, GET URLs presigned locally (SigV4 query signing by
// @aws-sdk/s3-request-presigner: no request leaves the portal to make one).
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
  type _Object,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { isAssetKey } from "../../shared/asset-layout/asset-keys.ts";
import { AssetStoreError, type AssetObject, type AssetStore } from "./asset-store.ts";
import { MAX_URL_SECONDS } from "./signed-path.ts";

export interface S3AssetStoreOptions {
  bucket: string;
  /** Default: the SDK's region chain (AWS_REGION ...), or `us-east-1` when an endpoint is set. */
  region?: string | null;
  /** An S3-compatible endpoint (path-style addressing); default AWS S3 (virtual-hosted). */
  endpoint?: string | null;
  /** Default: the SDK's credential chain (environment, shared files, SSO, container or instance role). */
  credentials?: S3ClientConfig["credentials"];
  /** The signing clock (tests pin it); default the machine's. */
  now?: () => Date;
  client?: S3Client;
  /** Keys per listing page (S3's MaxKeys; default S3's 1,000). */
  pageSize?: number;
}

export class S3AssetStore implements AssetStore {
  readonly kind = "s3" as const;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly now: () => Date;
  private readonly pageSize: number | undefined;

  constructor(o: S3AssetStoreOptions) {
    this.bucket = o.bucket;
    this.now = o.now ?? (() => new Date());
    this.pageSize = o.pageSize;
    const region = o.region ?? (o.endpoint ? "us-east-1" : undefined);
    this.client =
      o.client ??
      new S3Client({
        ...(region ? { region } : {}),
        ...(o.endpoint ? { endpoint: o.endpoint, forcePathStyle: true } : {}),
        ...(o.credentials ? { credentials: o.credentials } : {}),
        // Checksums only where S3 requires them: S3-compatible servers differ on the newer headers.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    checkKey(key);
    await guard(`write ${key}`, () =>
      this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType })),
    );
  }

  /** Every object under `prefix`, whatever its name (ListObjectsV2, page after page). */
  private async objectsUnder(prefix: string): Promise<_Object[]> {
    const out: _Object[] = [];
    let token: string | undefined;
    do {
      const page = await guard(`list ${prefix}`, () =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: this.pageSize }),
        ),
      );
      out.push(...(page.Contents ?? []));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async list(prefix: string): Promise<AssetObject[]> {
    const out: AssetObject[] = [];
    // Only asset keys are listed (they are what gets signed and served); erasure goes by objectsUnder.
    for (const o of await this.objectsUnder(prefix)) {
      if (!o.Key || !isAssetKey(o.Key)) continue;
      out.push({ key: o.Key, size_bytes: o.Size ?? 0, updated_at: Math.floor((o.LastModified?.getTime() ?? 0) / 1000) });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(prefix: string): Promise<void> {
    if (!prefix) throw new Error("refusing to delete every object: give a prefix");
    // Every key under the prefix, not only the layout's names: erasure removes the whole folder,
    // whatever else a box, an operator or a tool put there.
    const keys = (await this.objectsUnder(prefix)).flatMap((o) => (o.Key ? [o.Key] : []));
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const r = await guard(`delete ${prefix}`, () =>
        this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        ),
      );
      if (r.Errors?.length)
        throw new AssetStoreError(
          `could not delete ${r.Errors.length} objects under ${prefix}: ${r.Errors[0].Code} ${r.Errors[0].Message ?? ""}`,
          true,
        );
    }
  }

  async signedGetUrl(key: string, expiresIn: number): Promise<string> {
    checkKey(key);
    if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_URL_SECONDS)
      throw new Error(`expiresIn must be 1..${MAX_URL_SECONDS} seconds`);
    return guard(`sign a URL for ${key}`, () =>
      getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn, signingDate: this.now() }),
    );
  }
}

function checkKey(key: string): void {
  if (!isAssetKey(key)) throw new Error(`not an asset key: ${JSON.stringify(key).slice(0, 80)}`);
}

async function guard<T>(what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    const status = err instanceof S3ServiceException ? (err.$metadata.httpStatusCode ?? 0) : 0;
    // Throttling, a 5xx or no answer at all may pass; a refusal (403 credentials, 404 bucket) will not.
    const retryable = status === 0 || status === 429 || status === 503 || status >= 500;
    const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    throw new AssetStoreError(`the S3 store could not ${what}: ${reason}`, retryable, { cause: err });
  }
}
