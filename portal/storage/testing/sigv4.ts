// A small, independent SigV4 (AWS Signature Version 4) computation for S3, written from AWS's
// documentation ("Authenticating Requests: Using Query Parameters" and "Using the Authorization
// Header"), used to check signatures in tests. It is itself checked against AWS's published example
// (sigv4-example.test.ts) before it checks anything the SDK makes.
import { createHash, createHmac } from "node:crypto";

const hex = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");
const hmac = (key: string | Buffer, s: string) => createHmac("sha256", key).update(s).digest();

/** AWS's URI encoding: every byte but A-Z a-z 0-9 - _ . ~ as %XX (upper-case hex). */
export function awsUriEncode(s: string): string {
  return [...new TextEncoder().encode(s)]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

export interface SigV4Input {
  method: string;
  /** The request path as sent (already URI-encoded; S3 does not encode it again). */
  path: string;
  /** Decoded query parameters, excluding the signature itself. */
  query: [string, string][];
  /** Lower-case header names to their values, at least those signed. */
  headers: Record<string, string>;
  signedHeaders: string[];
  payloadHash: string;
  /** `YYYYMMDDTHHMMSSZ`. */
  amzDate: string;
  region: string;
  service: string;
  secretAccessKey: string;
}

export function canonicalRequest(i: SigV4Input): string {
  const query = i.query
    .map(([k, v]) => [awsUriEncode(k), awsUriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const names = [...i.signedHeaders].sort();
  const headers = names.map((h) => `${h}:${(i.headers[h] ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  return [i.method, i.path, query, headers, names.join(";"), i.payloadHash].join("\n");
}

export function sigV4Signature(i: SigV4Input): string {
  const day = i.amzDate.slice(0, 8);
  const scope = `${day}/${i.region}/${i.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", i.amzDate, scope, hex(canonicalRequest(i))].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${i.secretAccessKey}`, day), i.region), i.service), "aws4_request");
  return createHmac("sha256", key).update(stringToSign).digest("hex");
}

export type Verdict = { ok: true } | { ok: false; why: string };

/**
 * Checks a request S3-style: a presigned URL (X-Amz-* query, expiry included) or an
 * `Authorization: AWS4-HMAC-SHA256` header. `secretOf` gives the secret of an access key id.
 */
export function verifyS3Request(
  req: { method: string; url: string; headers: Record<string, string | string[] | undefined> },
  secretOf: (accessKeyId: string) => string | undefined,
  now: Date = new Date(),
): Verdict {
  const u = new URL(req.url, "http://placeholder");
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(",") : v;
  const params = [...u.searchParams];
  const q = Object.fromEntries(params);
  let credential: string, signedHeaders: string[], provided: string, amzDate: string, payloadHash: string;
  let query: [string, string][];
  if (q["X-Amz-Signature"]) {
    credential = q["X-Amz-Credential"] ?? "";
    signedHeaders = (q["X-Amz-SignedHeaders"] ?? "").split(";");
    provided = q["X-Amz-Signature"];
    amzDate = q["X-Amz-Date"] ?? "";
    payloadHash = q["X-Amz-Content-Sha256"] ?? "UNSIGNED-PAYLOAD";
    query = params.filter(([k]) => k !== "X-Amz-Signature");
    const t = Date.UTC(
      +amzDate.slice(0, 4),
      +amzDate.slice(4, 6) - 1,
      +amzDate.slice(6, 8),
      +amzDate.slice(9, 11),
      +amzDate.slice(11, 13),
      +amzDate.slice(13, 15),
    );
    if (now.getTime() > t + Number(q["X-Amz-Expires"] ?? 0) * 1000) return { ok: false, why: "Request has expired" };
  } else {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(
      headers.authorization ?? "",
    );
    if (!m) return { ok: false, why: "no SigV4 authorization" };
    [, credential, , provided] = m;
    signedHeaders = m[2].split(";");
    amzDate = headers["x-amz-date"] ?? "";
    payloadHash = headers["x-amz-content-sha256"] ?? "UNSIGNED-PAYLOAD";
    query = params;
  }
  const [accessKeyId, , region, service] = credential.split("/");
  const secret = secretOf(accessKeyId);
  if (!secret) return { ok: false, why: "unknown access key" };
  const expected = sigV4Signature({
    method: req.method,
    path: u.pathname,
    query,
    headers,
    signedHeaders,
    payloadHash,
    amzDate,
    region,
    service,
    secretAccessKey: secret,
  });
  return expected === provided ? { ok: true } : { ok: false, why: "SignatureDoesNotMatch" };
}
