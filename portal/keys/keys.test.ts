// `/auth/keys`: create (secret once), list, revoke, the 100-key limit (revoked keys count, exact
// under racing creates), bad names, and other people's keys.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestSecret } from "../../shared/key-table/secrets.ts";
import { createTestDb, createTestPortal, type TestPortal } from "../testing/test-portal.ts";

let portal: TestPortal;
let ada: string;
let bob: string;

beforeAll(async () => {
  portal = await createTestPortal({}, await createTestDb(false));
  ada = await portal.signIn("ada@example.com");
  bob = await portal.signIn("bob@example.com");
});
afterAll(() => portal.close());

const create = async (cookie: string, body: unknown) =>
  portal.app.request("/auth/keys", {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const list = async (cookie: string) => (await (await portal.app.request("/auth/keys", { headers: { cookie } })).json()).keys;
const revoke = (cookie: string, id: string) => portal.app.request(`/auth/keys/${id}`, { method: "DELETE", headers: { cookie } });

describe("POST /auth/keys", () => {
  it("returns the record with its secret once; the list never shows the secret", async () => {
    const res = await create(ada, { name: "laptop" });
    expect(res.status).toBe(201);
    const { key } = await res.json();
    expect(key).toEqual({
      id: await digestSecret(key.secret),
      name: "laptop",
      hint: `ak_...${key.secret.slice(-4)}`,
      last4: key.secret.slice(-4),
      created_at: expect.any(Number),
      created_by: "ada@example.com",
      revoked: false,
      revoked_at: null,
      revoked_by: null,
      secret: expect.stringMatching(/^ak_[A-Za-z0-9]{40,}$/),
    });
    const keys = await list(ada);
    const listed = keys.find((k: { id: string }) => k.id === key.id);
    const { secret: _secret, ...record } = key;
    expect(listed).toEqual(record);
    expect(JSON.stringify(keys)).not.toContain(key.secret);
    // The list is per identity.
    expect((await list(bob)).some((k: { id: string }) => k.id === key.id)).toBe(false);
  });

  const badNames: [string, unknown][] = [
    ["missing", {}],
    ["empty", { name: "" }],
    ["blank", { name: "   " }],
    ["10 KB", { name: "k".repeat(10 * 1024) }],
    ["a NUL", { name: "a\u0000b" }],
    ["a newline", { name: "line\nbreak" }],
    ["an escape", { name: "\u001b[31mred" }],
    ["a number", { name: 42 }],
    ["not JSON", "{name:"],
  ];
  for (const [what, body] of badNames) {
    it(`refuses a name that is ${what} with 400 invalid_name and stores nothing`, async () => {
      const before = (await list(bob)).length;
      const res = await create(bob, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: "invalid_name", message: expect.any(String) } });
      expect((await list(bob)).length).toBe(before);
    });
  }
});

describe("DELETE /auth/keys/{id}", () => {
  it("revokes; the key stays listed with revoked_at and revoked_by", async () => {
    const { key } = await (await create(ada, { name: "to revoke" })).json();
    const res = await revoke(ada, key.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const listed = (await list(ada)).find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ revoked: true, revoked_at: expect.any(Number), revoked_by: "ada@example.com" });
    // Again: still 200, nothing changes.
    expect((await revoke(ada, key.id)).status).toBe(200);
    expect((await list(ada)).find((k: { id: string }) => k.id === key.id).revoked_at).toBe(listed.revoked_at);
  });

  it("answers 404 key_not_found for another person's key and leaves it alone", async () => {
    const { key } = await (await create(ada, { name: "ada's" })).json();
    const res = await revoke(bob, key.id);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "key_not_found", message: expect.any(String) } });
    expect((await list(ada)).find((k: { id: string }) => k.id === key.id).revoked).toBe(false);
  });

  it("answers 404 key_not_found for an id that never existed", async () => {
    for (const id of ["0".repeat(64), "nope", "%00"]) {
      const res = await revoke(bob, id);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("key_not_found");
    }
  });

  it("answers other methods with 405 in the nested envelope", async () => {
    for (const [method, path] of [
      ["PUT", "/auth/keys"],
      ["DELETE", "/auth/keys"],
      ["POST", "/auth/keys/abc"],
    ]) {
      const res = await portal.app.request(path, { method, headers: { cookie: ada } });
      expect(res.status).toBe(405);
      expect((await res.json()).error.code).toBe("method_not_allowed");
    }
  });
});

describe("the 100-key limit", () => {
  it("counts revoked keys and refuses the 101st with 409 key_limit_reached", async () => {
    const carol = await portal.signIn("carol@example.com");
    for (let i = 0; i < 100; i++) expect((await create(carol, { name: `k${i}` })).status).toBe(201);
    const first = (await list(carol))[0];
    await revoke(carol, first.id);
    const res = await create(carol, { name: "one too many" });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: { code: "key_limit_reached", message: expect.any(String) } });
    expect(await list(carol)).toHaveLength(100);
  });

  it("holds exactly under concurrent creates in one process", async () => {
    const dan = await portal.signIn("dan@example.com");
    for (let i = 0; i < 95; i++) await create(dan, { name: `k${i}` });
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => create(dan, { name: `race ${i}` }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    expect(await list(dan)).toHaveLength(100);
  });
});

describe("cross-site requests on a cookie", () => {
  it("refuses a change started by another site (409) and creates nothing; same-origin is fine", async () => {
    const frank = await portal.signIn("frank@example.com");
    for (const site of ["cross-site", "same-site"]) {
      const res = await portal.app.request("/auth/keys", {
        method: "POST",
        headers: { cookie: frank, "content-type": "text/plain", "sec-fetch-site": site },
        body: JSON.stringify({ name: "csrf" }),
      });
      expect(res.status).toBe(409);
      expect((await res.json()).error.code).toBe("cross_site_request");
    }
    expect(await list(frank)).toEqual([]);
    const ok = await portal.app.request("/auth/keys", {
      method: "POST",
      headers: { cookie: frank, "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: JSON.stringify({ name: "mine" }),
    });
    expect(ok.status).toBe(201);
  });

  it("refuses a body over the /auth/* limit with 413 body_too_large", async () => {
    const res = await create(ada, { name: "x".repeat(100 * 1024) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("body_too_large");
  });
});
