// Test fixture for the avatar library and consent routes: a portal core on a temp-file database,
// a box's side of the shared avatar tables (the box's own SharedRecords, writing exactly as a box
// does), and a ledger client that can be switched down or made to hang.
import { createClient, type Client } from "@libsql/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SharedRecords, type AvatarObservation } from "../../box/avatars/own/shared-records.ts";
import type { PortalApp, PortalAppOptions } from "../app.ts";
import { migrateLedger } from "../consent/migrate.ts";
import { createTestDb, createTestPortal, type TestPortal } from "./test-portal.ts";

export interface LibraryFixture extends TestPortal {
  /** A box writing observations into the shared database (region/volume name where it ran). */
  box(region?: string, volume?: string): SharedRecords;
  /** What a box writes after preparing a face for `owner:<email>` (or another subject). */
  observe(o: Partial<AvatarObservation> & { subject: string; avatarId: string }): Promise<void>;
  call(cookie: string, method: string, path: string, body?: unknown): Promise<Response>;
  /** The same database and boxes, answered by another portal core (a second worker, another ledger). */
  withApp(app: PortalApp): LibraryFixture;
  /** Moves the boxes' clock on (observations get later `updated_at`s without waiting). */
  tick(seconds?: number): void;
}

export async function libraryFixture(overrides: Partial<PortalAppOptions> = {}): Promise<LibraryFixture> {
  const portal = await createTestPortal(overrides, await createTestDb(false));
  let offset = 0;
  const now = () => Math.floor(Date.now() / 1000) + offset;
  const box = (region = "local", volume = "vol-1") => new SharedRecords(portal.client, true, false, { region, volume, now });
  const defaultBox = box();
  const make = (app: PortalApp): LibraryFixture => ({
    ...portal,
    app,
    box,
    withApp: make,
    tick: (seconds = 1) => void (offset += seconds),
    async observe(o) {
      await defaultBox.observe({ name: o.avatarId, sourceKind: "photo", state: "ready", ...o });
    },
    call(cookie, method, path, body) {
      const headers: Record<string, string> = { cookie };
      let payload: string | undefined;
      if (body !== undefined) {
        headers["content-type"] = "application/json";
        payload = typeof body === "string" ? body : JSON.stringify(body);
      }
      return Promise.resolve(app.request(path, { method, headers, body: payload }));
    },
  });
  return make(portal.app);
}

export type LedgerMode = "up" | "down" | "hang";

/** A libSQL client whose every call fails (`down`) or never answers (`hang`) until set back `up`. */
export function switchableClient(real: Client): { client: Client; set(mode: LedgerMode): void } {
  let mode: LedgerMode = "up";
  const client = new Proxy(real, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (mode === "down") return Promise.reject(new Error("SQLITE_CANTOPEN: the ledger is down (test)"));
        if (mode === "hang") return new Promise(() => {});
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client, set: (m) => (mode = m) };
}

/** A ledger database of its own (a temp file), migrated on first use as the entry does. */
export function separateLedger(): { client: Client; url: string; migrate: () => Promise<void>; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), "ledger-test-"));
  const url = pathToFileURL(join(dir, "ledger.db")).href;
  const client = createClient({ url, timeout: 5000 });
  return {
    client,
    url,
    migrate: () => migrateLedger(client),
    dispose: () => {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const json = async (res: Response) => (await res.json()) as Record<string, any>;
