// The start contract: PORTAL_STORAGE (`file` default, or `s3` with PORTAL_S3_*), and what the local
// driver hands its box so that it archives into the same store.
import { describe, expect, it } from "vitest";
import { readPortalEnv } from "../env.ts";
import { assetDir, boxArchiveEnv } from "./open-store.ts";

describe("PORTAL_STORAGE", () => {
  it("defaults to file, under PORTAL_DATA_DIR/assets", () => {
    const env = readPortalEnv({ PORTAL_DATA_DIR: "/srv/portal" });
    expect(env.storage).toEqual({ kind: "file" });
    expect(assetDir(env.dataDir)).toBe("/srv/portal/assets");
  });

  it("s3 takes the bucket, region and endpoint (trailing slash dropped); credentials stay with the SDK chain", () => {
    expect(
      readPortalEnv({
        PORTAL_STORAGE: "S3",
        PORTAL_S3_BUCKET: "media",
        PORTAL_S3_REGION: "ap-southeast-2",
        PORTAL_S3_ENDPOINT: "http://127.0.0.1:9000/",
      }).storage,
    ).toEqual({
      kind: "s3",
      bucket: "media",
      region: "ap-southeast-2",
      endpoint: "http://127.0.0.1:9000",
    });
    expect(readPortalEnv({ PORTAL_STORAGE: "s3", PORTAL_S3_BUCKET: "media" }).storage).toEqual({
      kind: "s3",
      bucket: "media",
      region: null,
      endpoint: null,
    });
  });

  it("refuses an unknown kind, s3 without a bucket, and an endpoint that is not a URL", () => {
    expect(() => readPortalEnv({ PORTAL_STORAGE: "gcs" })).toThrow(/PORTAL_STORAGE/);
    expect(() => readPortalEnv({ PORTAL_STORAGE: "s3" })).toThrow(/PORTAL_S3_BUCKET/);
    expect(() => readPortalEnv({ PORTAL_STORAGE: "s3", PORTAL_S3_BUCKET: "m", PORTAL_S3_ENDPOINT: "minio:9000" })).toThrow(/storage/);
  });
});

describe("the local box's archive settings", () => {
  it("file: the portal's asset folder as BOX_ASSET_DIR", () => {
    expect(boxArchiveEnv({ kind: "file" }, "data", {})).toEqual({ BOX_ASSET_DIR: assetDir("data") });
    expect(assetDir("data")).toMatch(/^\/.*\/data\/assets$/);
  });

  it("s3: the same bucket, region and endpoint; no credential is passed", () => {
    expect(boxArchiveEnv({ kind: "s3", bucket: "media", region: "us-east-1", endpoint: "http://127.0.0.1:9000" }, "data", {})).toEqual({
      BOX_ASSET_STORE: "s3",
      BOX_S3_BUCKET: "media",
      BOX_S3_REGION: "us-east-1",
      BOX_S3_ENDPOINT: "http://127.0.0.1:9000",
    });
  });

  it("an operator's own BOX_ASSET_* wins", () => {
    expect(boxArchiveEnv({ kind: "file" }, "data", { BOX_ASSET_STORE: "off" })).toEqual({});
    expect(boxArchiveEnv({ kind: "file" }, "data", { BOX_ASSET_DIR: "/elsewhere" })).toEqual({});
  });
});
