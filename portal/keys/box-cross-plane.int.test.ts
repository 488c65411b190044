// The key table bridge, end to end: a key created on the portal works on a real box pointed at the
// same database (BOX_KEY_TABLE_URL) at once and stops working there at once when revoked; a
// portal-minted session credential is accepted until it expires.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalGpuDriver } from "../gpu/drivers/local.ts";
import { createTestDb, createTestPortal, type TestPortal } from "../testing/test-portal.ts";

let portal: TestPortal;
let box: LocalGpuDriver;
let boxUrl: string;
let cookie: string;
const boxDir = mkdtempSync(join(tmpdir(), "portal-box-"));

beforeAll(async () => {
  portal = await createTestPortal({ credentialTtlSeconds: 3 }, await createTestDb(false));
  box = new LocalGpuDriver({ baseEnv: process.env, boxEnv: { BOX_DATA_DIR: boxDir, BOX_KEY_TABLE_URL: portal.dbUrl } });
  await box.launch({ region: "local", instanceType: "local", maxRuntimeSeconds: 0 });
  boxUrl = box.boxUrl()!;
  cookie = await portal.signIn("ada@example.com");
});
afterAll(async () => {
  await box.close();
  await portal.close();
  rmSync(boxDir, { recursive: true, force: true });
});

const boxStatus = async (headers: Record<string, string>) => {
  const res = await fetch(new URL("/api/chat/status", boxUrl), { headers });
  return { status: res.status, body: await res.json() };
};

describe("portal key table on a real box", () => {
  it("a created key works on the box at once and is refused at once after revoke", async () => {
    const created = await portal.app.request("/auth/keys", {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "box key" }),
    });
    const { key } = await created.json();
    expect((await boxStatus({ "x-api-key": key.secret })).status).toBe(200);
    expect((await boxStatus({ authorization: `Bearer ${key.secret}` })).status).toBe(200);

    expect((await portal.app.request(`/auth/keys/${key.id}`, { method: "DELETE", headers: { cookie } })).status).toBe(200);
    const refused = await boxStatus({ "x-api-key": key.secret });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("invalid_api_key");
  });

  it("a key's id (its digest) or the portal cookie is no credential on the box", async () => {
    const { key } = await (
      await portal.app.request("/auth/keys", {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      })
    ).json();
    expect((await boxStatus({ "x-api-key": key.id })).status).toBe(401);
    expect((await boxStatus({ cookie })).status).toBe(401);
  });

  it("a session credential is accepted until it expires, then refused", async () => {
    const res = await portal.app.request("/auth/session/credential", { method: "POST", headers: { cookie } });
    const { credential } = await res.json();
    expect(credential.expires_in).toBe(3);
    expect((await boxStatus({ "x-api-key": credential.secret })).status).toBe(200);
    // Wait (not a timing assertion) until the box's clock is past expires_at.
    while (Math.floor(Date.now() / 1000) <= credential.expires_at) await new Promise((r) => setTimeout(r, 250));
    const refused = await boxStatus({ "x-api-key": credential.secret });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("invalid_api_key");
  });
});
