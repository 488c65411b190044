// A local S3-compatible server for tests: npm `s3rver` (run in this process on a loopback port)
// behind a front that checks every request's SigV4 signature the way S3 does (presigned query or
// Authorization header; expiry included). s3rver 3.7 checks the access key id and a presigned
// URL's expiry but not SigV4 signatures themselves, hence the front; its signature code
// (sigv4.ts) is checked against AWS's published example. One account: S3RVER / S3RVER.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { verifyS3Request } from "./sigv4.ts";

export const LOCAL_S3_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

export interface LocalS3 {
  endpoint: string;
  /** Requests the front refused, with the reason (tests look at why). */
  refused: { url: string; why: string }[];
  close(): Promise<void>;
}

export async function startLocalS3(buckets: string[]): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), "local-s3-"));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: buckets.map((name) => ({ name, configs: [] })) });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const refused: LocalS3["refused"] = [];
  const server: Server = createServer((req, res) => {
    const verdict = verifyS3Request({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers }, (id) =>
      id === LOCAL_S3_CREDENTIALS.accessKeyId ? LOCAL_S3_CREDENTIALS.secretAccessKey : undefined,
    );
    if (!verdict.ok) {
      refused.push({ url: req.url ?? "", why: verdict.why });
      const code =
        verdict.why === "Request has expired"
          ? "AccessDenied"
          : verdict.why === "unknown access key"
            ? "InvalidAccessKeyId"
            : "SignatureDoesNotMatch";
      res.writeHead(403, { "content-type": "application/xml" });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${verdict.why}</Message></Error>`);
      req.resume();
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    refused,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
