// `POST /auth/session/credential`: a full-scope box credential written to the key table with its
// expiry and owner; POST only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestSecret } from "../../shared/key-table/secrets.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";

let portal: TestPortal;
let cookie: string;
beforeAll(async () => {
  portal = await createTestPortal();
  cookie = await portal.signIn("ada@example.com");
});
afterAll(() => portal.close());

describe("POST /auth/session/credential", () => {
  it("answers 201 with the credential and stores only its digest, owner and expiry", async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await portal.app.request("/auth/session/credential", { method: "POST", headers: { cookie } });
    expect(res.status).toBe(201);
    const { credential } = await res.json();
    expect(credential).toEqual({ secret: expect.stringMatching(/^sc_/), expires_at: expect.any(Number), expires_in: 3600, scope: "full" });
    expect(credential.expires_at).toBeGreaterThanOrEqual(before + 3600);
    expect(credential.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);

    const rows = await portal.client.execute({
      sql: "SELECT * FROM credentials WHERE id = ?",
      args: [await digestSecret(credential.secret)],
    });
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({
      kind: "session_credential",
      scope: "full",
      owner: "ada@example.com",
      expires_at: credential.expires_at,
      revoked_at: null,
    });
    expect(JSON.stringify(rows.rows[0])).not.toContain(credential.secret);
  });

  it("minting again keeps a credential that just aged out (its socket may still be renewing) and clears day-old ones", async () => {
    const now = Math.floor(Date.now() / 1000);
    const row = (id: string, expiresAt: number) =>
      portal.client.execute({
        sql: "INSERT INTO credentials (id, kind, scope, owner, created_at, expires_at) VALUES (?, 'session_credential', 'full', 'ada@example.com', ?, ?)",
        args: [id, expiresAt - 3600, expiresAt],
      });
    await row("aged_out_a_minute_ago", now - 60);
    await row("expired_two_days_ago", now - 2 * 86_400);
    expect((await portal.app.request("/auth/session/credential", { method: "POST", headers: { cookie } })).status).toBe(201);
    const left = await portal.client.execute("SELECT id FROM credentials WHERE id IN ('aged_out_a_minute_ago', 'expired_two_days_ago')");
    expect(left.rows.map((r) => r.id)).toEqual(["aged_out_a_minute_ago"]);
  });

  it("is not an API key: it does not appear in /auth/keys", async () => {
    await portal.app.request("/auth/session/credential", { method: "POST", headers: { cookie } });
    const keys = await (await portal.app.request("/auth/keys", { headers: { cookie } })).json();
    expect(keys.keys).toEqual([]);
  });

  it("mints nothing on GET (405, nested envelope)", async () => {
    const count = async () => Number((await portal.client.execute("SELECT count(*) AS n FROM credentials")).rows[0].n);
    const before = await count();
    const res = await portal.app.request("/auth/session/credential", { headers: { cookie } });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ error: { code: "method_not_allowed", message: expect.any(String) } });
    expect(await count()).toBe(before);
  });
});
