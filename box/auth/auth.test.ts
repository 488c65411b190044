import { describe, expect, it } from "vitest";
import { policyFor } from "./policy.ts";
import { presentedCredential } from "./presentation.ts";
import { Authenticator, sha256Hex } from "./principal.ts";
import type { KeyRecord, KeyTable } from "./key-table.ts";
import type { ApiError } from "../../shared/errors/api-error.ts";

describe("policyFor (Plane A point 3)", () => {
  it.each([
    ["GET", "/", "public"],
    ["GET", "/health", "public"],
    ["GET", "/static/app.js", "public"],
    ["OPTIONS", "/api/settings", "public"],
    ["OPTIONS", "/anything", "public"],
    ["POST", "/health", "any"],
    ["GET", "/api/chat/status", "any"],
    ["GET", "/api/settings", "any"],
    ["POST", "/api/chat", "any"],
    ["GET", "/conversations", "any"],
    ["POST", "/connect", "any"],
    ["POST", "/api/avatar", "full"],
    ["POST", "/api/avatar/delete", "full"],
    ["POST", "/api/upload", "full"],
    ["POST", "/api/voice/upload", "full"],
    ["POST", "/api/voice/prepare", "full"],
    ["POST", "/api/settings", "full"],
    ["POST", "/api/settings/", "full"],
    ["GET", "/api/stats", "full"],
    ["POST", "/v1/streaming.create_token", "full"],
    ["POST", "/v1/photo_avatar.create", "full"],
    ["GET", "/api/avatar", "any"],
  ])("%s %s is %s", (method, path, policy) => {
    expect(policyFor(method, path)).toBe(policy);
  });
});

describe("presentedCredential (three forms, in order of preference)", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it("prefers X-Api-Key over Bearer over ?session_token", () => {
    expect(presentedCredential(h({ "x-api-key": "a", authorization: "Bearer b" }), "http://x/p?session_token=c")).toEqual({
      secret: "a",
      form: "x-api-key",
    });
    expect(presentedCredential(h({ authorization: "Bearer b" }), "http://x/p?session_token=c")).toEqual({ secret: "b", form: "bearer" });
    expect(presentedCredential(h({}), "http://x/p?a=1&session_token=c")).toEqual({ secret: "c", form: "session_token" });
  });
  it("finds nothing in an empty header, a non-Bearer scheme or an empty token", () => {
    expect(presentedCredential(h({ "x-api-key": "  " }), "http://x/p")).toBeNull();
    expect(presentedCredential(h({ authorization: "Basic Zm9v" }), "http://x/p")).toBeNull();
    expect(presentedCredential(h({}), "http://x/p?session_token=")).toBeNull();
  });
});

function table(rows: Record<string, KeyRecord>): KeyTable {
  return { lookup: (d) => rows[d] ?? null, insert: async () => {}, close() {} };
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

describe("Authenticator", () => {
  const now = 1_000_000;
  const code = async (p: Promise<unknown>) =>
    p.then(
      () => "ok",
      (e: ApiError) => e.code,
    );

  it("accepts configured keys as full with a per-key subject", async () => {
    const a = new Authenticator(["k1"], null, () => now);
    expect(a.open).toBe(false);
    const p = await a.resolve("k1");
    expect(p).toMatchObject({ scope: "full", kind: "configured_key", subject: `key:${sha256Hex("k1")}` });
    expect(await code(a.resolve("k2"))).toBe("invalid_api_key");
  });

  it("is open with neither keys nor key table", () => {
    expect(new Authenticator([], null).open).toBe(true);
  });

  it("refuses revoked and expired rows, accepts live ones", async () => {
    const t = table({
      [sha256Hex("live")]: row({}),
      [sha256Hex("revoked")]: row({ revoked_at: now - 1 }),
      [sha256Hex("expired")]: row({ kind: "session_credential", expires_at: now }),
      [sha256Hex("cred")]: row({ kind: "session_credential", expires_at: now + 60 }),
    });
    const a = new Authenticator([], t, () => now);
    expect(await code(a.resolve("live"))).toBe("ok");
    expect(await code(a.resolve("revoked"))).toBe("invalid_api_key");
    expect(await code(a.resolve("expired"))).toBe("invalid_api_key");
    expect(await a.resolve("cred")).toMatchObject({ scope: "full", subject: "owner:a@x.test" });
  });

  it("gives a session token scope tts and its minter's subject, and kills it with its minter", async () => {
    const parent = sha256Hex("k1");
    const t = table({
      [sha256Hex("tok")]: row({ kind: "session_token", scope: "tts", parent_id: parent, expires_at: now + 10 }),
      [sha256Hex("orphan")]: row({ kind: "session_token", scope: "tts", parent_id: sha256Hex("gone"), expires_at: now + 10 }),
      [sha256Hex("child")]: row({
        kind: "session_token",
        scope: "tts",
        parent_id: "p",
        expires_at: now + 10,
        p_kind: "api_key",
        p_revoked_at: now - 5,
      }),
      [sha256Hex("viaCred")]: row({
        kind: "session_token",
        scope: "tts",
        parent_id: "c",
        expires_at: now + 10,
        p_kind: "session_credential",
        p_owner: "b@x.test",
        p_expires_at: now + 100,
      }),
    });
    const a = new Authenticator(["k1"], t, () => now);
    expect(await a.resolve("tok")).toMatchObject({ scope: "tts", subject: `key:${parent}`, kind: "session_token" });
    expect(await code(a.resolve("orphan"))).toBe("invalid_api_key");
    expect(await code(a.resolve("child"))).toBe("invalid_api_key");
    expect(await a.resolve("viaCred")).toMatchObject({ scope: "tts", subject: "owner:b@x.test" });
  });
});

describe("Authenticator.status (a credential frozen on a socket)", () => {
  const now = 5000;
  it("tells live, aged out and revoked apart", async () => {
    const rows: Record<string, KeyRecord> = {
      [sha256Hex("live")]: row({}),
      [sha256Hex("old")]: row({ kind: "session_credential", expires_at: now - 1 }),
      [sha256Hex("gone")]: row({ revoked_at: now - 1 }),
      [sha256Hex("tokOfRevoked")]: row({
        kind: "session_token",
        scope: "tts",
        parent_id: "p",
        expires_at: now + 9,
        p_kind: "api_key",
        p_revoked_at: 1,
      }),
      [sha256Hex("tokOld")]: row({ kind: "session_token", scope: "tts", parent_id: sha256Hex("cfg"), expires_at: now - 1 }),
    };
    const a = new Authenticator(["cfg"], table(rows), () => now);
    expect(await a.status("cfg")).toBe("live");
    expect(await a.status("live")).toBe("live");
    expect(await a.status("old")).toBe("expired");
    expect(await a.status("gone")).toBe("revoked");
    expect(await a.status("never-existed")).toBe("revoked");
    expect(await a.status("tokOfRevoked")).toBe("revoked");
    expect(await a.status("tokOld")).toBe("expired");
  });
});
