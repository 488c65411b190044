// `/auth/portraits*` with the embedded drawing generator (sharp rasterising the shared face
// drawing): the record, the image and its headers, approval bound to the digest (an upload
// attestation the box accepts), regeneration under a new id with the old bytes kept, partitions
// between people, bad ids and bodies, and nothing stored when generation or storage fails.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedRecords } from "../../box/avatars/own/shared-records.ts";
import { FileAssetStore } from "../storage/file-store.ts";
import { MemoryAssetStore } from "../storage/memory-store.ts";
import { S3AssetStore } from "../storage/s3-store.ts";
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from "../storage/testing/local-s3.ts";
import { createTestDb, createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { PortraitApproval } from "./schema.ts";
import { PortraitRecord } from "../../shared/wire/portraits.ts";
import { sha256Hex } from "./service.ts";
import { sharpRasterise } from "./sharp-rasterise.ts";

const SIZE = 256;
let portal: TestPortal;
let ada: string;
let bob: string;
let stored: MemoryAssetStore;

beforeAll(async () => {
  portal = await createTestPortal(
    {
      portraits: { rasterise: sharpRasterise, size: SIZE },
      assetStore: (urls) => (stored = new MemoryAssetStore(urls)),
    },
    await createTestDb(false),
  );
  ada = await portal.signIn("ada@example.com");
  bob = await portal.signIn("bob@example.com");
});
afterAll(() => portal.close());

interface Answer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  json: any;
}

async function call(
  cookie: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await portal.app.request(path, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  let json: any = null;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, bytes, json };
}

const create = (cookie: string, description: string) => call(cookie, "POST", "/auth/portraits", { description });
const count = async (table: string) => Number((await portal.client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
const counts = async () => ({
  portraits: await count("portraits"),
  attestations: await count("upload_attestations"),
  objects: (await stored.list("portraits/")).length,
});

describe("POST /auth/portraits", () => {
  it("draws one portrait and answers 201 with its record", async () => {
    const res = await create(ada, "  an elderly man with glasses, grey hair, a beard and a blue shirt, smiling ");
    expect(res.status).toBe(201);
    const p = res.json.portrait;
    expect(Value.Check(PortraitRecord, p)).toBe(true);
    expect(p).toEqual({
      portrait_id: expect.stringMatching(/^p_[a-z0-9]{32}$/),
      description: "an elderly man with glasses, grey hair, a beard and a blue shirt, smiling",
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      content_type: "image/png",
      width: SIZE,
      height: SIZE,
      size_bytes: expect.any(Number),
      generator: "embedded",
      created_at: expect.any(Number),
      approved_at: null,
      consent_id: null,
      regenerated_from: null,
      url: `/auth/portraits/${p.portrait_id}`,
    });
    expect(Number.isInteger(p.created_at)).toBe(true);
    expect(Math.abs(p.created_at - Date.now() / 1000)).toBeLessThan(60);
    expect(JSON.stringify(res.json)).not.toContain("ada@example.com");
    // Kept in the media store under the owner's digest folder, never the address.
    const folder = createHash("sha256").update("ada@example.com").digest("hex");
    const [object] = await stored.list(`portraits/${folder}/${p.portrait_id}`);
    expect(object).toMatchObject({ key: `portraits/${folder}/${p.portrait_id}.png`, size_bytes: p.size_bytes });
  });

  it("refuses bodies that are not a description, with a readable sentence and nothing stored", async () => {
    const before = await counts();
    const bad: [unknown, RegExp][] = [
      [undefined, /JSON object/],
      ["not json", /JSON object/],
      [[1, 2], /JSON object/],
      [{}, /description/],
      [{ description: 42 }, /description/],
      [{ description: "   " }, /empty/],
      [{ description: "a".repeat(1001) }, /1001 characters.*at most 1000/],
      [{ description: "a man\nwith a hat" }, /control characters/],
      [{ description: "a man\twith a hat" }, /control characters/],
      [{ description: "a bell \u0007" }, /control characters/],
    ];
    for (const [body, message] of bad) {
      const res = await call(ada, "POST", "/auth/portraits", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe("invalid_body");
      expect(res.json.error.message).toMatch(message);
    }
    expect(await counts()).toEqual(before);
  });

  it("counts characters, not UTF-16 units: 1000 emoji are accepted", async () => {
    const res = await create(ada, "\u{1F600}".repeat(1000));
    expect(res.status).toBe(201);
    expect([...res.json.portrait.description]).toHaveLength(1000);
  });

  it("needs a signed-in person", async () => {
    const res = await call(null, "POST", "/auth/portraits", { description: "a woman" });
    expect(res.status).toBe(401);
  });
});

describe("GET /auth/portraits/{id}", () => {
  it("answers the exact bytes with their digest, type and an immutable cache", async () => {
    const { portrait } = (await create(ada, "a young woman with long red hair and green eyes")).json;
    const res = await call(ada, "GET", portrait.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("etag")).toBe(`"${portrait.sha256}"`);
    expect(res.headers.get("x-portrait-sha256")).toBe(portrait.sha256);
    expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(res.bytes.length).toBe(portrait.size_bytes);
    expect(await sha256Hex(res.bytes)).toBe(portrait.sha256);
    const meta = await sharp(res.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", SIZE, SIZE]);

    const again = await call(ada, "GET", portrait.url, undefined, { "if-none-match": `"${portrait.sha256}"` });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    const other = await call(ada, "GET", portrait.url, undefined, { "if-none-match": `"${"0".repeat(64)}"` });
    expect(other.status).toBe(200);
    const head = await call(ada, "HEAD", portrait.url);
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(portrait.size_bytes));
    expect(head.headers.get("x-portrait-sha256")).toBe(portrait.sha256);
  });

  it("answers another person's portrait exactly like one that never existed", async () => {
    const { portrait } = (await create(ada, "a calm man with a moustache")).json;
    const attestations = await count("upload_attestations");
    const theirs = await call(bob, "GET", portrait.url);
    const unknown = await call(bob, "GET", `/auth/portraits/p_${"0".repeat(32)}`);
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual({ error: { code: "portrait_not_found", message: expect.any(String) } });
    expect(theirs.json).toEqual(unknown.json);
    expect((await call(bob, "POST", `${portrait.url}/approve`, { sha256: portrait.sha256 })).json).toEqual(unknown.json);
    expect((await call(bob, "POST", `${portrait.url}/regenerate`)).json).toEqual(unknown.json);
    // And it is still Ada's, unapproved.
    expect((await call(ada, "GET", portrait.url)).status).toBe(200);
    expect(await count("upload_attestations")).toBe(attestations);
  });

  it("answers ids that cannot be portraits with 404 portrait_not_found", async () => {
    const { portrait } = (await create(ada, "a woman with a bun")).json;
    const id: string = portrait.portrait_id;
    const paths = [
      `/auth/portraits/${id}%2F..`,
      `/auth/portraits/${id.slice(0, 10)}%2F${id.slice(10)}`,
      `/auth/portraits/${id.slice(0, 10)}/${id.slice(10)}`,
      `/auth/portraits/${id}.png`,
      `/auth/portraits/${id.toUpperCase()}`,
      `/auth/portraits/${encodeURIComponent(`p_${"é".repeat(32)}`)}`,
      `/auth/portraits/${id}%00`,
      `/auth/portraits/${id.slice(0, -1)}`,
      `/auth/portraits/${"p_" + "a".repeat(200)}`,
    ];
    for (const path of paths) {
      for (const [method, suffix] of [
        ["GET", ""],
        ["POST", "/approve"],
        ["POST", "/regenerate"],
      ] as const) {
        const res = await call(ada, method, path + suffix, method === "POST" ? { sha256: portrait.sha256 } : undefined);
        expect(res.status, `${method} ${path}${suffix}`).toBe(404);
        expect(res.json.error.code, `${method} ${path}${suffix}`).toBe("portrait_not_found");
        expect(res.json.error.message).toMatch(/portrait/);
      }
    }
    // Dot segments never reach the route (the URL parser resolves them): still a 404.
    expect((await call(ada, "GET", "/auth/portraits/%2e%2e")).status).toBe(404);
    expect((await call(ada, "GET", `/auth/portraits/${id}/..`)).status).toBe(404);
    expect((await call(ada, "GET", portrait.url)).status).toBe(200);
  });

  it("refuses other methods", async () => {
    const { portrait } = (await create(ada, "a serious man")).json;
    for (const [method, path] of [
      ["PUT", "/auth/portraits"],
      ["DELETE", "/auth/portraits"],
      ["DELETE", portrait.url],
      ["PUT", portrait.url],
      ["GET", `${portrait.url}/approve`],
      ["GET", `${portrait.url}/regenerate`],
    ]) {
      const res = await call(ada, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.json.error.code).toBe("method_not_allowed");
    }
    expect((await call(ada, "GET", portrait.url)).status).toBe(200);
  });
});

describe("GET /auth/portraits", () => {
  it("lists the owner's portraits and their history, newest first, as records", async () => {
    const carol = await portal.signIn("carol@example.com");
    expect((await call(carol, "GET", "/auth/portraits")).json).toEqual({ portraits: [] });
    const first = (await create(carol, "a tall woman with a grey bob")).json.portrait;
    const second = (await call(carol, "POST", `${first.url}/regenerate`, {})).json.portrait;
    const third = (await create(carol, "a boy with freckles")).json.portrait;
    await call(carol, "POST", `${second.url}/approve`, { sha256: second.sha256 });
    const res = await call(carol, "GET", "/auth/portraits");
    expect(res.status).toBe(200);
    expect(res.json.portraits.map((p: PortraitRecord) => p.portrait_id)).toEqual([
      third.portrait_id,
      second.portrait_id,
      first.portrait_id,
    ]);
    for (const p of res.json.portraits) expect(Value.Check(PortraitRecord, p)).toBe(true);
    const [, approved, original] = res.json.portraits as PortraitRecord[];
    expect(approved.regenerated_from).toBe(first.portrait_id);
    expect(approved.consent_id).toMatch(/^uc_/);
    expect(original.consent_id).toBeNull();
    expect(new TextDecoder().decode(res.bytes)).not.toContain("carol@example.com");
  });

  it("shows nobody else's portraits, and reads no paging", async () => {
    const dan = await portal.signIn("dan@example.com");
    const mine = (await create(dan, "a man with a red scarf")).json.portrait;
    const everyone = (await call(ada, "GET", "/auth/portraits?limit=1&offset=0&cursor=x&page=2")).json.portraits as PortraitRecord[];
    expect(everyone.length).toBeGreaterThan(1);
    expect(everyone.map((p) => p.portrait_id)).not.toContain(mine.portrait_id);
    expect((await call(dan, "GET", "/auth/portraits?limit=0")).json.portraits.map((p: PortraitRecord) => p.portrait_id)).toEqual([
      mine.portrait_id,
    ]);
  });

  it("answers nobody signed in with 401, and other methods with the error envelope", async () => {
    const anonymous = await call(null, "GET", "/auth/portraits");
    expect(anonymous.status).toBe(401);
    // The sign-in refusal is the portal's unwrapped 401 (as on every /auth/* route).
    expect(anonymous.json).toEqual({ code: expect.any(String), message: expect.any(String) });
    const put = await call(ada, "PUT", "/auth/portraits", { portraits: [] });
    expect(put.status).toBe(405);
    expect(put.json.error.code).toBe("method_not_allowed");
  });
});

describe("POST /auth/portraits/{id}/approve", () => {
  it("refuses another digest with 409 and records nothing", async () => {
    const { portrait } = (await create(ada, "a woman in a red sweater")).json;
    const before = await count("upload_attestations");
    const wrong = portrait.sha256.replace(/^./, (c: string) => (c === "0" ? "1" : "0"));
    const res = await call(ada, "POST", `${portrait.url}/approve`, { sha256: wrong });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("portrait_digest_mismatch");
    expect(res.json.error.message).toMatch(/digest/);
    expect(await count("upload_attestations")).toBe(before);
    const row = (
      await portal.client.execute({
        sql: "SELECT approved_at, consent_id FROM portraits WHERE portrait_id = ?",
        args: [portrait.portrait_id],
      })
    ).rows[0];
    expect([row.approved_at, row.consent_id]).toEqual([null, null]);
  });

  it("refuses a body without a digest with 400 invalid_body", async () => {
    const { portrait } = (await create(ada, "a man in a green jacket")).json;
    for (const body of [undefined, "nope", [], {}, { sha256: "abc" }, { sha256: "z".repeat(64) }, { sha256: 12 }]) {
      const res = await call(ada, "POST", `${portrait.url}/approve`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe("invalid_body");
    }
  });

  it("records an upload attestation bound to the bytes, with no owner, that the box accepts; again is the same", async () => {
    const { portrait } = (await create(ada, "a cheerful woman with curly hair and glasses")).json;
    const seen = await call(ada, "GET", portrait.url);
    const digest = seen.headers.get("x-portrait-sha256")!;
    const before = await count("upload_attestations");

    const res = await call(ada, "POST", `${portrait.url}/approve`, { sha256: digest.toUpperCase() });
    expect(res.status).toBe(200);
    expect(Value.Check(PortraitApproval, res.json)).toBe(true);
    const { portrait: approved, consent } = res.json;
    expect(consent).toEqual({
      consent_id: expect.stringMatching(/^uc_[A-Za-z0-9]{32}$/),
      sha256: portrait.sha256,
      attested_at: expect.any(Number),
      source_kind: "image",
    });
    expect(approved).toEqual({ ...portrait, approved_at: consent.attested_at, consent_id: consent.consent_id });
    expect(JSON.stringify(res.json)).not.toContain("ada@example.com");

    const rows = await portal.client.execute({ sql: "SELECT * FROM upload_attestations WHERE consent_id = ?", args: [consent.consent_id] });
    expect(rows.columns.sort()).toEqual(["attested_at", "consent_id", "sha256", "source_kind"]);
    expect(rows.rows[0]).toMatchObject({ sha256: portrait.sha256, source_kind: "image", attested_at: consent.attested_at });

    // The box checks the studio's upload of these bytes against this token, and refuses other bytes.
    const box = new SharedRecords(portal.client, true, false);
    expect(await box.checkConsent(consent.consent_id, await sha256Hex(seen.bytes))).toBe("ok");
    expect(await box.checkConsent(consent.consent_id, "0".repeat(64))).toBe("mismatch");

    const again = await call(ada, "POST", `${portrait.url}/approve`, { sha256: digest });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(res.json);
    expect(await count("upload_attestations")).toBe(before + 1);
    expect((await call(ada, "GET", portrait.url)).headers.get("x-portrait-sha256")).toBe(portrait.sha256);
  });

  it("concurrent approvals leave one attestation", async () => {
    const { portrait } = (await create(ada, "a gentle old man")).json;
    const before = await count("upload_attestations");
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(ada, "POST", `${portrait.url}/approve`, { sha256: portrait.sha256 })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.json.consent.consent_id)).size).toBe(1);
    expect(await count("upload_attestations")).toBe(before + 1);
  });
});

describe("POST /auth/portraits/{id}/regenerate", () => {
  it("answers 201 with a new id and new bytes; the old id keeps its exact bytes and its approval", async () => {
    const first = (await create(ada, "a bald man with a goatee in a navy suit")).json.portrait;
    const oldBytes = (await call(ada, "GET", first.url)).bytes;
    await call(ada, "POST", `${first.url}/approve`, { sha256: first.sha256 });

    const res = await call(ada, "POST", `${first.url}/regenerate`);
    expect(res.status).toBe(201);
    const next = res.json.portrait;
    expect(Value.Check(PortraitRecord, next)).toBe(true);
    expect(next.portrait_id).not.toBe(first.portrait_id);
    expect(next).toMatchObject({
      description: first.description,
      regenerated_from: first.portrait_id,
      approved_at: null,
      consent_id: null,
      generator: "embedded",
    });
    expect(next.sha256).not.toBe(first.sha256);
    const newBytes = (await call(ada, "GET", next.url)).bytes;
    expect(Buffer.compare(Buffer.from(newBytes), Buffer.from(oldBytes))).not.toBe(0);

    const old = await call(ada, "GET", first.url);
    expect(Buffer.compare(Buffer.from(old.bytes), Buffer.from(oldBytes))).toBe(0);
    expect(old.headers.get("x-portrait-sha256")).toBe(first.sha256);
    const approvedAgain = await call(ada, "POST", `${first.url}/approve`, { sha256: first.sha256 });
    expect(approvedAgain.json.portrait.consent_id).toMatch(/^uc_/);

    // A chain: regenerating the regenerated one points at it.
    const third = (await call(ada, "POST", `${next.url}/regenerate`, {})).json.portrait;
    expect(third.regenerated_from).toBe(next.portrait_id);
  });

  it("takes a new description, and refuses a bad one with nothing stored", async () => {
    const first = (await create(ada, "a man")).json.portrait;
    const res = await call(ada, "POST", `${first.url}/regenerate`, { description: "a woman with a red scarf and a smile" });
    expect(res.status).toBe(201);
    expect(res.json.portrait).toMatchObject({ description: "a woman with a red scarf and a smile", regenerated_from: first.portrait_id });
    const before = await counts();
    for (const body of ["{", [], { description: "" }, { description: 7 }, { description: "x\ny" }]) {
      const bad = await call(ada, "POST", `${first.url}/regenerate`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json.error.code).toBe("invalid_body");
    }
    expect(await counts()).toEqual(before);
    // null or no description: the old one.
    expect((await call(ada, "POST", `${first.url}/regenerate`, { description: null })).json.portrait.description).toBe("a man");
  });
});

describe("the file store (the embedded default)", () => {
  it("keeps the bytes as a file and serves them back exactly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portraits-files-"));
    const onDisk = await createTestPortal({
      portraits: { rasterise: sharpRasterise, size: 64 },
      assetStore: (urls) => new FileAssetStore(dir, urls),
    });
    try {
      const cookie = await onDisk.signIn("ada@example.com");
      const made = await onDisk.app.request("/auth/portraits", {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ description: "a woman" }),
      });
      const { portrait } = (await made.json()) as any;
      const folder = createHash("sha256").update("ada@example.com").digest("hex");
      const file = readFileSync(join(dir, "portraits", folder, `${portrait.portrait_id}.png`));
      const served = new Uint8Array(await (await onDisk.app.request(portrait.url, { headers: { cookie } })).arrayBuffer());
      expect(Buffer.compare(file, Buffer.from(served))).toBe(0);
      expect(await sha256Hex(served)).toBe(portrait.sha256);
    } finally {
      await onDisk.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the s3 store", () => {
  it("keeps the bytes in the bucket and serves them back exactly (read through a presigned URL)", async () => {
    const s3 = await startLocalS3(["portraits-media"]);
    const bucket = new S3AssetStore({
      bucket: "portraits-media",
      endpoint: s3.endpoint,
      region: "us-east-1",
      credentials: LOCAL_S3_CREDENTIALS,
    });
    const remote = await createTestPortal({ portraits: { rasterise: sharpRasterise, size: 64 }, assetStore: () => bucket });
    try {
      const cookie = await remote.signIn("ada@example.com");
      const made = await remote.app.request("/auth/portraits", {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ description: "a man" }),
      });
      const { portrait } = (await made.json()) as any;
      const [object] = await bucket.list("portraits/");
      expect(object.key).toMatch(new RegExp(`/${portrait.portrait_id}\\.png$`));
      const served = new Uint8Array(await (await remote.app.request(portrait.url, { headers: { cookie } })).arrayBuffer());
      expect(served.length).toBe(portrait.size_bytes);
      expect(await sha256Hex(served)).toBe(portrait.sha256);
    } finally {
      await remote.close();
      await s3.close();
    }
  });
});

describe("when generating or storing fails", () => {
  it("answers 503 portrait_generator_unavailable without a rasteriser or a provider, and stores nothing", async () => {
    const bare = await createTestPortal();
    try {
      const cookie = await bare.signIn("ada@example.com");
      const res = await bare.app.request("/auth/portraits", {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ description: "a man" }),
      });
      expect(res.status).toBe(503);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe("portrait_generator_unavailable");
      expect(body.error.message).toMatch(/PORTAL_IMAGE_BASE_URL/);
      expect(Number((await bare.client.execute("SELECT count(*) AS n FROM portraits")).rows[0].n)).toBe(0);
    } finally {
      await bare.close();
    }
  });

  it("answers 502 when the rasteriser fails, and 502 asset_store_failed when the store refuses; nothing kept", async () => {
    let store!: MemoryAssetStore;
    let refuse = false;
    const broken = await createTestPortal({
      portraits: {
        rasterise: async () => {
          throw new Error("librsvg exploded");
        },
      },
    });
    const flaky = await createTestPortal({
      portraits: { rasterise: sharpRasterise, size: 64 },
      assetStore: (urls) => {
        store = new MemoryAssetStore(urls);
        const put = store.put.bind(store);
        store.put = async (k, b, t) => {
          if (refuse) throw new Error("disk full");
          return put(k, b, t);
        };
        return store;
      },
    });
    try {
      const post = async (p: TestPortal, cookie: string) =>
        p.app.request("/auth/portraits", {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({ description: "a man" }),
        });
      const r1 = await post(broken, await broken.signIn("ada@example.com"));
      expect(r1.status).toBe(502);
      expect(((await r1.json()) as any).error).toEqual({
        code: "portrait_generation_failed",
        message: expect.stringMatching(/could not be drawn: librsvg exploded/),
      });
      expect(Number((await broken.client.execute("SELECT count(*) AS n FROM portraits")).rows[0].n)).toBe(0);

      refuse = true;
      const r2 = await post(flaky, await flaky.signIn("ada@example.com"));
      expect(r2.status).toBe(502);
      expect(((await r2.json()) as any).error.code).toBe("asset_store_failed");
      expect(Number((await flaky.client.execute("SELECT count(*) AS n FROM portraits")).rows[0].n)).toBe(0);
      expect(await store.list("portraits/")).toEqual([]);
    } finally {
      await broken.close();
      await flaky.close();
    }
  });
});
