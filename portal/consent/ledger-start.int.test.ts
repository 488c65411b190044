// The `PORTAL_LEDGER_URL` start contract through the Bun entry: unset (the portal database), a
// ledger database of its own, an unreachable one (publish 503, withdraw 200), `off`, and the
// withdrawal made while it was unreachable recorded once the ledger is back.
import { createClient, type Client } from "@libsql/client";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedRecords } from "../../box/avatars/own/shared-records.ts";
import { startPortalProcess, type PortalProcess } from "../testing/portal-process.ts";

const dir = mkdtempSync(join(tmpdir(), "portal-ledger-"));
const outbox = join(dir, "outbox");
const portalDbUrl = pathToFileURL(join(dir, "portal.db")).href;
const ledgerUrl = pathToFileURL(join(dir, "ledger", "ledger.db")).href;
let portal: PortalProcess | null = null;
let box: Client;
let cookie = "";

async function start(ledger: string | null): Promise<string> {
  await portal?.stop();
  portal = await startPortalProcess({
    PORTAL_DB_URL: portalDbUrl,
    PORTAL_DATA_DIR: dir,
    PORTAL_MAIL_OUTBOX: outbox,
    PORTAL_GPU_DRIVER: "none",
    PORTAL_SECRET: "ledger-test-secret-0123456789abcdef0123456789",
    ...(ledger === null ? {} : { PORTAL_LEDGER_URL: ledger }),
  });
  return portal.url;
}

async function signIn(url: string, email: string): Promise<string> {
  await fetch(`${url}/auth/request-link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  const mail = readdirSync(outbox)
    .map((n) => readFileSync(join(outbox, n), "utf8"))
    .find((m) => m.includes(`\r\nTo: ${email}\r\n`))!;
  const link = /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(mail)![1];
  const landed = await fetch(link, { redirect: "manual" });
  return landed.headers.get("set-cookie")!.split(";")[0];
}

const call = (url: string, method: string, path: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method,
    headers: { cookie, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  const url = await start(null);
  cookie = await signIn(url, "ada@example.com");
  box = createClient({ url: portalDbUrl, timeout: 5000 });
  const records = new SharedRecords(box, true, false, { region: "local", volume: "vol" });
  for (const id of ["one", "two"])
    await records.observe({ subject: "owner:ada@example.com", avatarId: id, name: id, sourceKind: "photo", state: "ready" });
});
afterAll(async () => {
  await portal?.stop();
  box?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("PORTAL_LEDGER_URL", () => {
  it("unset: agreements are kept in the portal's own database", async () => {
    const url = portal!.url;
    expect((await call(url, "POST", "/auth/avatars/one/publication-consent")).status).toBe(201);
    const rows = await box.execute("SELECT avatar_id FROM publication_consents");
    expect(rows.rows.map((r) => r.avatar_id)).toEqual(["one"]);
  });

  it("a database of its own: migrated on first use, agreements go there", async () => {
    const url = await start(ledgerUrl);
    expect((await call(url, "POST", "/auth/avatars/two/publication-consent")).status).toBe(201);
    expect((await call(url, "PUT", "/auth/avatars/two/visibility", { visibility: "public" })).status).toBe(200);
    const ledger = createClient({ url: ledgerUrl });
    try {
      const rows = await ledger.execute("SELECT avatar_id, withdrawn_at FROM publication_consents");
      expect(rows.rows.map((r) => [r.avatar_id, r.withdrawn_at])).toEqual([["two", null]]);
    } finally {
      ledger.close();
    }
  });

  it("unreachable: publishing and agreeing 503, withdrawing 200", async () => {
    const url = await start("http://127.0.0.1:1");
    const agree = await call(url, "POST", "/auth/avatars/one/publication-consent");
    expect(agree.status).toBe(503);
    expect((await agree.json()).error.code).toBe("publication_consent_unavailable");
    expect((await call(url, "PUT", "/auth/avatars/one/visibility", { visibility: "public" })).status).toBe(503);
    const withdraw = await call(url, "PUT", "/auth/avatars/two/visibility", { visibility: "private" });
    expect(withdraw.status).toBe(200);
    expect((await withdraw.json()).avatar.visibility).toBe("private");
    const listed = await (await call(url, "GET", "/auth/avatars/public")).json();
    expect(listed.avatars).toEqual([]);
  });

  it("off: publishing 503, the terms and withdrawing still answer", async () => {
    const url = await start("off");
    expect((await call(url, "PUT", "/auth/avatars/two/visibility", { visibility: "public" })).status).toBe(503);
    expect((await call(url, "PUT", "/auth/avatars/two/visibility", { visibility: "private" })).status).toBe(200);
    expect((await call(url, "GET", "/auth/avatars/publication-terms")).status).toBe(200);
  });

  it("back: the withdrawal made while it was unreachable is recorded before anything else", async () => {
    const url = await start(ledgerUrl);
    const res = await call(url, "PUT", "/auth/avatars/two/visibility", { visibility: "public" });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("publication_consent_required");
    const ledger = createClient({ url: ledgerUrl });
    try {
      const rows = await ledger.execute("SELECT withdrawn_at FROM publication_consents WHERE avatar_id = 'two'");
      expect(rows.rows.map((r) => r.withdrawn_at)).toEqual([expect.any(Number)]);
    } finally {
      ledger.close();
    }
  });
});
