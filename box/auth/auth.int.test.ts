// Integration: the real Bun box on a loopback port, every credential form and policy class.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "@libsql/client";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256Hex } from "./principal.ts";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { spawnBox, runBoxExpectingExit, type RunningBox } from "../testing/spawn-box.ts";

const KEY = "box_full_key_1";
const now = () => Math.floor(Date.now() / 1000);

async function call(box: RunningBox, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(box.url + path, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json: json as Record<string, any>, headers: res.headers };
}

describe("an open box (no keys, no key table)", () => {
  let box: RunningBox;
  beforeAll(async () => (box = await spawnBox({ BOX_ALLOWED_ORIGINS: "https://studio.example" })));
  afterAll(() => box.stop());

  it("serves every route unauthenticated, full routes included", async () => {
    expect((await call(box, "GET", "/api/chat/status")).status).toBe(200);
    expect((await call(box, "GET", "/api/stats")).status).toBe(200);
    expect((await call(box, "GET", "/api/settings")).status).toBe(200);
  });

  it("refuses token minting with 400 auth_disabled in the unwrapped envelope", async () => {
    const r = await call(box, "POST", "/v1/streaming.create_token", {}, {});
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ code: "auth_disabled", message: expect.any(String) });
  });

  it("answers CORS only for allowed origins, and preflights publicly", async () => {
    const ok = await call(box, "GET", "/health", { origin: "https://studio.example" });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://studio.example");
    const other = await call(box, "GET", "/health", { origin: "https://evil.example" });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const pre = await fetch(box.url + "/api/settings", {
      method: "OPTIONS",
      headers: { origin: "https://studio.example", "access-control-request-method": "POST" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/x-api-key/i);
  });

  it("answers /health, /disconnect and /api/interrupt with the spec's shapes", async () => {
    const health = (await call(box, "GET", "/health")).json;
    expect(Object.keys(health).sort()).toEqual(["avatar", "speaking_face", "status"]);
    expect(health.status).toBe("ok");
    expect((await call(box, "POST", "/disconnect")).json).toEqual({ ok: true });
    expect((await call(box, "POST", "/api/interrupt", {}, "not even json")).json).toEqual({ ok: true });
  });

  it("reports stats: cpu figures, gpus from nvidia-smi or empty, no shutdown without a max runtime", async () => {
    const r = await call(box, "GET", "/api/stats");
    expect(r.json).toMatchObject({
      shutdown_minutes: null,
      cpu_percent: expect.any(Number),
      cpu_cores: expect.any(Number),
      gpus: expect.any(Array),
    });
    expect(r.json.cpu_cores).toBeGreaterThan(0);
  });
});

describe("a box with configured keys and a key table", () => {
  let box: RunningBox;
  let kt: Client;
  let ktUrl: string;
  beforeAll(async () => {
    ktUrl = `file:${join(mkdtempSync(join(tmpdir(), "kt-")), "keys.db")}`;
    kt = createClient({ url: ktUrl });
    await migrateKeyTable(kt);
    box = await spawnBox({ BOX_API_KEYS: `other_key, ${KEY}`, BOX_KEY_TABLE_URL: ktUrl, BOX_MAX_RUNTIME_SECONDS: "7200" });
  });
  afterAll(async () => {
    await box.stop();
    kt.close();
  });

  const insert = (
    secret: string,
    o: {
      kind?: string;
      scope?: string;
      expires?: number | null;
      revoked?: number | null;
      parent?: string | null;
      owner?: string | null;
    } = {},
  ) =>
    kt.execute({
      sql: "INSERT INTO credentials (id, kind, scope, owner, parent_id, created_at, expires_at, revoked_at) VALUES (?,?,?,?,?,?,?,?)",
      args: [
        sha256Hex(secret),
        o.kind ?? "api_key",
        o.scope ?? "full",
        o.owner ?? "dev@x.test",
        o.parent ?? null,
        now(),
        o.expires ?? null,
        o.revoked ?? null,
      ],
    });

  it("401 missing_api_key without a credential, unwrapped", async () => {
    const r = await call(box, "GET", "/api/chat/status");
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ code: "missing_api_key", message: expect.any(String) });
  });

  it("401 invalid_api_key for an unknown key", async () => {
    const r = await call(box, "GET", "/api/chat/status", { "x-api-key": "nope" });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ code: "invalid_api_key", message: expect.any(String) });
  });

  it("accepts X-Api-Key and Bearer, preferring X-Api-Key", async () => {
    expect((await call(box, "GET", "/api/chat/status", { "x-api-key": KEY })).status).toBe(200);
    expect((await call(box, "GET", "/api/chat/status", { authorization: `Bearer ${KEY}` })).status).toBe(200);
    expect((await call(box, "GET", "/api/chat/status", { "x-api-key": KEY, authorization: "Bearer junk" })).status).toBe(200);
    expect((await call(box, "GET", "/api/chat/status", { "x-api-key": "junk", authorization: `Bearer ${KEY}` })).json.code).toBe(
      "invalid_api_key",
    );
  });

  it("keeps public routes public", async () => {
    expect((await call(box, "GET", "/health")).status).toBe(200);
    expect((await call(box, "GET", "/")).json).toMatchObject({ status: "ok", openapi: "/openapi.json" });
    expect((await call(box, "GET", "/openapi.json")).status).toBe(200);
    expect((await fetch(box.url + "/api/settings", { method: "OPTIONS" })).status).toBe(204);
  });

  it("mints a session token: data wrapper, scope tts, prefix-tagged, ttl default/clamp/alias", async () => {
    const t0 = now();
    const def = await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": KEY });
    expect(def.status).toBe(200);
    expect(def.json).toEqual({ data: { token: expect.stringMatching(/^st_/), expires_at: expect.any(Number), scope: "tts" } });
    expect(def.json.data.expires_at - t0).toBeGreaterThanOrEqual(299);
    expect(def.json.data.expires_at - t0).toBeLessThanOrEqual(302);
    const lo = await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": KEY }, { ttl_seconds: 5 });
    expect(lo.json.data.expires_at - now()).toBeLessThanOrEqual(30);
    expect(lo.json.data.expires_at - t0).toBeGreaterThanOrEqual(29);
    const hi = await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": KEY }, { ttl_seconds: 1e12 });
    expect(hi.json.data.expires_at - t0).toBeLessThanOrEqual(602);
    expect(hi.json.data.expires_at - t0).toBeGreaterThanOrEqual(599);
    const alias = await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": KEY }, { ttl: 100 });
    expect(alias.json.data.expires_at - t0).toBeGreaterThanOrEqual(99);
    expect(alias.json.data.expires_at - t0).toBeLessThanOrEqual(102);
    const bad = await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": KEY }, { ttl_seconds: "soon" });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: "invalid_body", message: expect.any(String) });
    // the key table stores the digest only, never the token
    const rows = await kt.execute({ sql: "SELECT id FROM credentials WHERE id = ?", args: [def.json.data.token] });
    expect(rows.rows).toHaveLength(0);
    const byDigest = await kt.execute({ sql: "SELECT kind, scope FROM credentials WHERE id = ?", args: [sha256Hex(def.json.data.token)] });
    expect(byDigest.rows[0]).toMatchObject({ kind: "session_token", scope: "tts" });
  });

  it("a session token works on `any` routes in all three forms, not on `full` routes, and cannot mint", async () => {
    const { token } = (await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": KEY })).json.data;
    expect((await call(box, "GET", "/api/chat/status", { "x-api-key": token })).status).toBe(200);
    expect((await call(box, "GET", "/api/chat/status", { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await call(box, "GET", `/api/chat/status?session_token=${token}`)).status).toBe(200);
    for (const [m, p] of [
      ["POST", "/api/settings"],
      ["GET", "/api/stats"],
      ["POST", "/v1/streaming.create_token"],
      ["POST", "/api/avatar/delete"],
    ]) {
      const r = await call(box, m, p, { "x-api-key": token }, m === "GET" ? undefined : {});
      expect(r.status, `${m} ${p}`).toBe(401);
      expect(r.json).toEqual({ code: "insufficient_scope", message: expect.any(String) });
    }
  });

  it("acts on revocation and expiry at the next request, tokens dying with their minter", async () => {
    await insert("table_key");
    expect((await call(box, "GET", "/api/settings", { "x-api-key": "table_key" })).status).toBe(200);
    const { token } = (await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": "table_key" })).json.data;
    expect((await call(box, "GET", "/api/settings", { "x-api-key": token })).status).toBe(200);
    await kt.execute({
      sql: "UPDATE credentials SET revoked_at = ?, revoked_by = 'dev@x.test' WHERE id = ?",
      args: [now(), sha256Hex("table_key")],
    });
    expect((await call(box, "GET", "/api/settings", { "x-api-key": "table_key" })).json.code).toBe("invalid_api_key");
    expect((await call(box, "GET", "/api/settings", { "x-api-key": token })).json.code).toBe("invalid_api_key");

    await insert("short_cred", { kind: "session_credential", expires: now() + 2 });
    expect((await call(box, "GET", "/api/settings", { "x-api-key": "short_cred" })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await call(box, "GET", "/api/settings", { "x-api-key": "short_cred" })).json.code).toBe("invalid_api_key");
  });

  it("503 mint_failed when the key store cannot issue a token", async () => {
    await kt.execute(
      "CREATE TRIGGER refuse_tokens BEFORE INSERT ON credentials WHEN NEW.kind = 'session_token' BEGIN SELECT RAISE(ABORT, 'store offline'); END",
    );
    try {
      const r = await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": KEY });
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ code: "mint_failed", message: expect.stringContaining("store") });
      expect((await call(box, "GET", "/health")).status).toBe(200);
    } finally {
      await kt.execute("DROP TRIGGER refuse_tokens");
    }
  });

  it("reports shutdown_minutes from the configured maximum runtime", async () => {
    const r = await call(box, "GET", "/api/stats", { "x-api-key": KEY });
    expect(r.json.shutdown_minutes).toBeGreaterThan(115);
    expect(r.json.shutdown_minutes).toBeLessThanOrEqual(120);
  });
});

describe("start-up refusal", () => {
  it("refuses to start open when BOX_PUBLIC_HOSTNAME is set: clear message, non-zero exit", async () => {
    const r = await runBoxExpectingExit({ BOX_PUBLIC_HOSTNAME: "box.example.com", BOX_DATA_DIR: mkdtempSync(join(tmpdir(), "box-")) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/BOX_PUBLIC_HOSTNAME/);
    expect(r.stderr).toMatch(/BOX_API_KEYS|BOX_KEY_TABLE_URL/);
  });

  it("a keys-only box refuses minting with auth_disabled", async () => {
    const box = await spawnBox({ BOX_API_KEYS: KEY, BOX_PUBLIC_HOSTNAME: "box.example.com" });
    try {
      const r = await call(box, "POST", "/v1/streaming.create_token", { "x-api-key": KEY });
      expect(r.status).toBe(400);
      expect(r.json.code).toBe("auth_disabled");
    } finally {
      await box.stop();
    }
  });
});
