// Builds the portal core on a migrated libSQL database for tests, and signs people in through the
// real magic-link routes.
import { createClient, type Client } from "@libsql/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createPortalApp, type PortalApp, type PortalAppOptions } from "../app.ts";
import { migratePortalDb } from "../db/migrate.ts";
import { MemoryMailer } from "../sign-in/mailer.ts";

export const TEST_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

export interface TestPortal {
  app: PortalApp;
  client: Client;
  mailer: MemoryMailer;
  /** libSQL URL of the database (a temp file unless `memory` was asked for). */
  dbUrl: string;
  signIn(email: string): Promise<string>;
  close(): Promise<void>;
}

/** A temp-file database (shareable with a box process) unless `memory` is true. */
export async function createTestDb(memory = false): Promise<{ client: Client; url: string; dispose: () => void }> {
  if (memory) {
    const client = createClient({ url: ":memory:" });
    await migratePortalDb(client);
    return { client, url: ":memory:", dispose: () => client.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), "portal-test-"));
  const url = pathToFileURL(join(dir, "portal.db")).href;
  const client = createClient({ url, timeout: 5000 });
  await client.execute("PRAGMA journal_mode = WAL");
  await migratePortalDb(client);
  return {
    client,
    url,
    dispose: () => {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function createTestPortal(
  overrides: Partial<PortalAppOptions> = {},
  db?: { client: Client; url: string; dispose: () => void },
): Promise<TestPortal> {
  const database = db ?? (await createTestDb(true));
  const mailer = new MemoryMailer();
  const app = createPortalApp({ db: database.client, secret: TEST_SECRET, mailer, log: () => {}, ...overrides });
  return {
    app,
    client: database.client,
    mailer,
    dbUrl: database.url,
    signIn: (email) => signInThroughLink(app, mailer, email),
    close: async () => database.dispose(),
  };
}

export function linkFromMail(text: string): string {
  const m = /(https?:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`no sign-in link in mail: ${text}`);
  return m[1];
}

/** Requests a link, redeems it, and returns the `Cookie` header value. */
export async function signInThroughLink(app: PortalApp, mailer: MemoryMailer, email: string): Promise<string> {
  const before = mailer.sent.length;
  const res = await app.request("/auth/request-link", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (res.status !== 200) throw new Error(`request-link answered ${res.status}`);
  const mail = mailer.sent.slice(before).find((m) => m.to === email.toLowerCase());
  if (!mail) throw new Error(`no mail for ${email}`);
  const callback = await app.request(linkFromMail(mail.text));
  if (callback.status !== 303) throw new Error(`callback answered ${callback.status}`);
  return cookieFrom(callback);
}

/** `name=value` of the first Set-Cookie (what a browser sends back). */
export function cookieFrom(res: Response): string {
  const set = res.headers.get("set-cookie");
  if (!set) throw new Error("no Set-Cookie");
  return set.split(";")[0];
}
