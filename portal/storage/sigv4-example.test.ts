// The signing the `s3` store relies on, against AWS's published SigV4 example: the "GET object"
// example of the S3 docs "Authenticating Requests: Using Query Parameters (AWS Signature Version
// 4)". The presigner (@aws-sdk/s3-request-presigner), fed those credentials and a fixed clock,
// must produce the published signature; so must the tests' own SigV4 code (testing/sigv4.ts), which
// then checks the store's own presigned URL (the SDK adds `x-id=GetObject`, so that URL's
// signature differs from the published one and is recomputed independently).
import { S3Client } from "@aws-sdk/client-s3";
import { S3RequestPresigner } from "@aws-sdk/s3-request-presigner";
import { describe, expect, it } from "vitest";
import { S3AssetStore } from "./s3-store.ts";
import { sigV4Signature, verifyS3Request } from "./testing/sigv4.ts";

const EXAMPLE = {
  credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
  region: "us-east-1",
  host: "examplebucket.s3.amazonaws.com",
  path: "/test.txt",
  date: new Date("2013-05-24T00:00:00Z"),
  expires: 86400,
  signature: "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
  url:
    "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
    "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request" +
    "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host" +
    "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
};

describe("SigV4 query signing, AWS's published GET object example", () => {
  it("the SDK's S3 presigner, with a fixed clock and the example credentials, produces the published URL", async () => {
    const client = new S3Client({ region: EXAMPLE.region, credentials: EXAMPLE.credentials });
    const presigner = new S3RequestPresigner({ ...client.config });
    const signed = await presigner.presign(
      { method: "GET", protocol: "https:", hostname: EXAMPLE.host, path: EXAMPLE.path, query: {}, headers: { host: EXAMPLE.host } },
      // The S3 presigner also states the payload hash (UNSIGNED-PAYLOAD, the example's too) as an
      // X-Amz-Content-Sha256 query parameter, which the example leaves out: keep it a header, unsigned.
      {
        signingDate: EXAMPLE.date,
        expiresIn: EXAMPLE.expires,
        unhoistableHeaders: new Set(["x-amz-content-sha256"]),
        unsignableHeaders: new Set(["x-amz-content-sha256"]),
      },
    );
    expect(signed.query?.["X-Amz-Signature"]).toBe(EXAMPLE.signature);
    expect(signed.query).toEqual({
      "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
      "X-Amz-Credential": "AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request",
      "X-Amz-Date": "20130524T000000Z",
      "X-Amz-Expires": "86400",
      "X-Amz-SignedHeaders": "host",
      "X-Amz-Signature": EXAMPLE.signature,
    });
    client.destroy();
  });

  it("the tests' own SigV4 code produces the published signature too (so it may judge the store's)", () => {
    expect(
      sigV4Signature({
        method: "GET",
        path: EXAMPLE.path,
        query: [...new URL(EXAMPLE.url).searchParams].filter(([k]) => k !== "X-Amz-Signature"),
        headers: { host: EXAMPLE.host },
        signedHeaders: ["host"],
        payloadHash: "UNSIGNED-PAYLOAD",
        amzDate: "20130524T000000Z",
        region: EXAMPLE.region,
        service: "s3",
        secretAccessKey: EXAMPLE.credentials.secretAccessKey,
      }),
    ).toBe(EXAMPLE.signature);
    const atThen = new Date(EXAMPLE.date.getTime() + 1000);
    const req = (url: string) => ({ method: "GET", url: new URL(url).pathname + new URL(url).search, headers: { host: EXAMPLE.host } });
    const secretOf = (id: string) => (id === EXAMPLE.credentials.accessKeyId ? EXAMPLE.credentials.secretAccessKey : undefined);
    expect(verifyS3Request(req(EXAMPLE.url), secretOf, atThen)).toEqual({ ok: true });
    expect(verifyS3Request(req(EXAMPLE.url.replace("aeeed9", "aeeed8")), secretOf, atThen)).toEqual({
      ok: false,
      why: "SignatureDoesNotMatch",
    });
    expect(verifyS3Request(req(EXAMPLE.url), secretOf, new Date(EXAMPLE.date.getTime() + 86401_000))).toEqual({
      ok: false,
      why: "Request has expired",
    });
  });

  it("the store's signedGetUrl, pinned to the example's clock and credentials, signs exactly as SigV4 prescribes", async () => {
    const store = new S3AssetStore({
      bucket: "examplebucket",
      region: EXAMPLE.region,
      credentials: EXAMPLE.credentials,
      now: () => EXAMPLE.date,
    });
    const url = new URL(await store.signedGetUrl("test.txt", EXAMPLE.expires));
    // Virtual-hosted addressing on AWS itself (no endpoint set); the SDK names the region in the host.
    expect(url.host).toMatch(/^examplebucket\.s3(\.us-east-1)?\.amazonaws\.com$/);
    expect(url.pathname).toBe(EXAMPLE.path);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD",
      "x-id": "GetObject",
      "X-Amz-Credential": "AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request",
      "X-Amz-Date": "20130524T000000Z",
      "X-Amz-Expires": "86400",
      "X-Amz-SignedHeaders": "host",
    });
    const verdict = verifyS3Request(
      { method: "GET", url: url.pathname + url.search, headers: { host: url.host } },
      () => EXAMPLE.credentials.secretAccessKey,
      new Date(EXAMPLE.date.getTime() + 1000),
    );
    expect(verdict).toEqual({ ok: true });
    // And with the presigner's extra parameters taken out, the signature is the published one.
    const signed = new URL(EXAMPLE.url);
    expect(
      verifyS3Request(
        { method: "GET", url: signed.pathname + signed.search, headers: { host: EXAMPLE.host } },
        () => EXAMPLE.credentials.secretAccessKey,
        new Date(EXAMPLE.date.getTime() + 1000),
      ),
    ).toEqual({ ok: true });
    store.client.destroy();
  });
});
