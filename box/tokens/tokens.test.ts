// POST /v1/streaming.create_token through the box app (app.handle, no port): ttl parsing and the
// reported `expires_at` of a token minted by a credential that itself expires.
import { describe, expect, it } from "vitest";
import { createBoxApp } from "../app.ts";
import { Authenticator, sha256Hex } from "../auth/principal.ts";
import type { KeyRecord, KeyTable } from "../auth/key-table.ts";
import type { NewCredentialRow } from "../../shared/key-table/schema.ts";
import { tokenRoutes } from "./routes.ts";

const KEY = "configured_full_key";
const nowS = () => Math.floor(Date.now() / 1000);

function memoryKeyTable(rows: Record<string, KeyRecord>) {
  const inserted: NewCredentialRow[] = [];
  const table: KeyTable = {
    lookup: (digest) => rows[digest] ?? null,
    insert: async (row) => void inserted.push(row),
    close() {},
  };
  return { table, inserted };
}
const row = (o: Partial<KeyRecord>): KeyRecord => ({
  kind: "api_key",
  scope: "full",
  owner: "a@x.test",
  parent_id: null,
  expires_at: null,
  revoked_at: null,
  p_kind: null,
  p_owner: null,
  p_expires_at: null,
  p_revoked_at: null,
  ...o,
});

function boxWith(rows: Record<string, KeyRecord> = {}) {
  const { table, inserted } = memoryKeyTable(rows);
  const app = createBoxApp({ auth: new Authenticator([KEY], table), allowedOrigins: [], routes: tokenRoutes(table) });
  const mint = async (secret: string, body?: string) => {
    const res = await app.handle(
      new Request("http://localhost/v1/streaming.create_token", {
        method: "POST",
        headers: { "x-api-key": secret, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body,
      }),
    );
    return { status: res.status, json: (await res.json()) as any };
  };
  return { mint, inserted };
}

describe("POST /v1/streaming.create_token: ttl_seconds", () => {
  it.each([
    ["no body", 300, undefined],
    ["{}", 300, "{}"],
    ["a fraction, floored", 45, '{"ttl_seconds":45.9}'],
    ["below the range", 30, '{"ttl_seconds":5}'],
    ["above the range", 600, '{"ttl_seconds":1e12}'],
    ["the alias ttl", 100, '{"ttl":100}'],
  ])("%s → ttl %i", async (_name, ttl, body) => {
    const { mint } = boxWith();
    const before = nowS();
    const r = await mint(KEY, body);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ token: expect.stringMatching(/^st_/), expires_at: expect.any(Number), scope: "tts" });
    expect(r.json.data.expires_at).toBeGreaterThanOrEqual(before + ttl);
    expect(r.json.data.expires_at).toBeLessThanOrEqual(nowS() + ttl);
  });

  it.each([
    ['{"ttl_seconds":null}'],
    ['{"ttl":null}'],
    ['{"ttl_seconds":null,"ttl":100}'],
    ['{"ttl_seconds":"300"}'],
    ['{"ttl_seconds":"NaN"}'],
    ['{"ttl_seconds":true}'],
    ['{"ttl_seconds":[300]}'],
    ['{"ttl_seconds":{"s":300}}'],
    ['{"ttl":"soon"}'],
    ['{"ttl_seconds":1e999}'],
    ['{"ttl_seconds":-1e999}'],
  ])("%s → 400 invalid_body, unwrapped, and nothing minted", async (body) => {
    const { mint, inserted } = boxWith();
    const r = await mint(KEY, body);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ code: "invalid_body", message: expect.any(String) });
    expect(inserted).toHaveLength(0);
  });
});

describe("POST /v1/streaming.create_token: expires_at of a token whose minter expires", () => {
  it("reports the parent's expiry when the parent (a key-table API key) dies first", async () => {
    const parentExpires = nowS() + 60;
    const { mint, inserted } = boxWith({ [sha256Hex("ak_short")]: row({ kind: "api_key", expires_at: parentExpires }) });
    const r = await mint("ak_short", '{"ttl_seconds":600}');
    expect(r.status).toBe(200);
    expect(r.json.data.expires_at).toBe(parentExpires);
    expect(inserted[0]).toMatchObject({ kind: "session_token", scope: "tts", parentId: sha256Hex("ak_short"), expiresAt: parentExpires });
  });

  it("reports the parent's expiry for a portal session credential that dies first", async () => {
    const parentExpires = nowS() + 60;
    const { mint } = boxWith({
      [sha256Hex("sc_short")]: row({ kind: "session_credential", owner: "p@x.test", expires_at: parentExpires }),
    });
    const r = await mint("sc_short");
    expect(r.status).toBe(200);
    expect(r.json.data.expires_at).toBe(parentExpires);
  });

  it("reports now + ttl when the parent outlives the token", async () => {
    const { mint } = boxWith({ [sha256Hex("sc_long")]: row({ kind: "session_credential", owner: "p@x.test", expires_at: nowS() + 3600 }) });
    const before = nowS();
    const r = await mint("sc_long", '{"ttl_seconds":600}');
    expect(r.json.data.expires_at).toBeGreaterThanOrEqual(before + 600);
    expect(r.json.data.expires_at).toBeLessThanOrEqual(nowS() + 600);
  });
});
