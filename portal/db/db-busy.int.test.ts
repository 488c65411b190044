// Integration: the Bun entry on a `file:` database that another process (a box, an operator's
// sqlite3 shell) holds write-locked longer than the busy timeout. Meanwhile every write answers
// 503 `database_busy` with a sentence; as soon as the lock is released, sign-in and key creation
// work again without a restart, and the portal leaves no lock behind.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPortalProcess, type PortalProcess } from "../testing/portal-process.ts";
import { holdWriteLock } from "./testing/write-lock.ts";

const dir = mkdtempSync(join(tmpdir(), "portal-db-busy-"));
const dbPath = join(dir, "portal.db");
const outbox = join(dir, "outbox");
const json = { "content-type": "application/json" };
let portal: PortalProcess;

beforeAll(async () => {
  portal = await startPortalProcess({
    PORTAL_DB_URL: pathToFileURL(dbPath).href,
    PORTAL_DATA_DIR: dir,
    PORTAL_MAIL_OUTBOX: outbox,
    PORTAL_GPU_DRIVER: "none",
  });
});
afterAll(async () => {
  await portal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const requestLink = (email: string) =>
  fetch(`${portal.url}/auth/request-link`, { method: "POST", headers: json, body: JSON.stringify({ email }) });

function latestLinkFor(email: string): string {
  for (const name of readdirSync(outbox).sort().reverse()) {
    const raw = readFileSync(join(outbox, name), "utf8");
    if (raw.includes(`\r\nTo: ${email}\r\n`)) return /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(raw)![1];
  }
  throw new Error(`no mail for ${email} in the outbox`);
}

async function signIn(email: string): Promise<string> {
  expect((await requestLink(email)).status).toBe(200);
  const res = await fetch(latestLinkFor(email), { redirect: "manual" });
  expect(res.status).toBe(303);
  return res.headers.get("set-cookie")!.split(";")[0];
}

const createKey = (cookie: string, name: string) =>
  fetch(`${portal.url}/auth/keys`, { method: "POST", headers: { ...json, cookie }, body: JSON.stringify({ name }) });

async function expectBusy(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body).toEqual({ error: { code: "database_busy", message: expect.stringMatching(/busy.*try again/i) } });
}

describe("the Bun portal while another process holds its database's write lock", () => {
  it("answers writes 503 database_busy, then signs in and creates keys once the lock is gone", async () => {
    const ada = await signIn("ada@example.com");
    expect((await createKey(ada, "before")).status).toBe(201);
    expect((await requestLink("bob@example.com")).status).toBe(200);
    const bobLink = latestLinkFor("bob@example.com");

    // The holder commits a write of its own too, as a box does: the portal's view of the file moves on.
    const lock = await holdWriteLock(dbPath, {
      mode: "EXCLUSIVE",
      sql: "INSERT INTO credentials (id, kind, scope, owner, created_at) VALUES ('box-row', 'api_key', 'full', 'box@example.com', 1)",
    });
    await expectBusy(await requestLink("cy@example.com"));
    await expectBusy(await fetch(bobLink, { redirect: "manual" }));
    await expectBusy(await createKey(ada, "while-locked"));
    await lock.release();

    const created = await createKey(ada, "after");
    expect(created.status).toBe(201);
    expect((await createKey(ada, "after-2")).status).toBe(201);
    // The link tried during the lock was not used up: it signs Bob in now.
    const redeemed = await fetch(bobLink, { redirect: "manual" });
    expect(redeemed.status).toBe(303);
    const bob = redeemed.headers.get("set-cookie")!.split(";")[0];
    expect((await createKey(bob, "bobs")).status).toBe(201);
    expect((await requestLink("cy@example.com")).status).toBe(200);
    const keys = (await (await fetch(`${portal.url}/auth/keys`, { headers: { cookie: ada } })).json()) as { keys: { name: string }[] };
    expect(keys.keys.map((k) => k.name)).toEqual(["before", "after", "after-2"]);

    // The portal holds no lock now: another process can take the write lock again at once.
    const again = await holdWriteLock(dbPath, { mode: "EXCLUSIVE" });
    await again.release();
  });
});
