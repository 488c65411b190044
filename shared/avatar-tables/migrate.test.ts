// The avatar tables' migrations: on a fresh file, beside the key table's (one shared database),
// re-applied, and applied by two planes at once.
import { afterEach, describe, expect, it } from "vitest";
import { createClient, type Client } from "@libsql/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateKeyTable } from "../key-table/migrate.ts";
import { migratePortalDb } from "../../portal/db/migrate.ts";
import { migrateAvatarTables } from "./migrate.ts";

const dirs: string[] = [];
const clients: Client[] = [];
afterEach(() => {
  clients.splice(0).forEach((c) => c.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function freshFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "avatar-tables-"));
  dirs.push(dir);
  return `file:${join(dir, "shared.db")}`;
}

function open(url: string): Client {
  const c = createClient({ url, timeout: 5000 });
  clients.push(c);
  return c;
}

async function names(c: Client, type: "table" | "index"): Promise<string[]> {
  const rs = await c.execute({
    sql: "SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name",
    args: [type],
  });
  return rs.rows.map((r) => String(r.name));
}

describe("avatar tables migrations", () => {
  it("apply on a fresh file beside the key table, each with its own migrations table", async () => {
    const c = open(freshFile());
    await migrateKeyTable(c);
    await migrateAvatarTables(c);
    expect(await names(c, "table")).toEqual([
      "__avatar_tables_migrations",
      "__key_table_migrations",
      "avatar_erase_orders",
      "avatar_observations",
      "credentials",
      "upload_attestations",
    ]);
    expect(await names(c, "index")).toEqual(
      expect.arrayContaining([
        "avatar_erase_orders_pending",
        "avatar_erase_orders_owner",
        "avatar_observations_owner",
        "avatar_observations_public",
      ]),
    );
  });

  it("are applied by the portal's start-up migration (the portal owns the database file)", async () => {
    const c = open(freshFile());
    await migratePortalDb(c);
    await migratePortalDb(c);
    expect(await names(c, "table")).toEqual(
      expect.arrayContaining([
        "__avatar_tables_migrations",
        "__key_table_migrations",
        "__portal_migrations",
        "avatar_erase_orders",
        "avatar_observations",
        "upload_attestations",
      ]),
    );
  });

  it("re-apply idempotently, in either order, keeping the rows", async () => {
    const url = freshFile();
    const c = open(url);
    await migrateAvatarTables(c);
    await migrateKeyTable(c);
    await c.execute("INSERT INTO upload_attestations (consent_id, sha256, attested_at) VALUES ('c1', 'ab', 1)");
    await migrateAvatarTables(c);
    await migrateKeyTable(c);
    // A second plane (another client, as the box is another process) migrates the same file.
    const other = open(url);
    await migrateAvatarTables(other);
    const rows = (await other.execute("SELECT consent_id, source_kind FROM upload_attestations")).rows;
    expect(rows.map((r) => ({ ...r }))).toEqual([{ consent_id: "c1", source_kind: "image" }]);
    expect(Number((await c.execute("SELECT count(*) AS n FROM __avatar_tables_migrations")).rows[0].n)).toBe(1);
  });

  it("two planes migrating a fresh file at the same moment both succeed", async () => {
    const url = freshFile();
    const a = open(url);
    const b = open(url);
    await a.execute("PRAGMA journal_mode = WAL");
    await Promise.all([migrateAvatarTables(a), migrateAvatarTables(b), migrateKeyTable(a)]);
    expect(await names(b, "table")).toEqual(expect.arrayContaining(["avatar_erase_orders", "avatar_observations", "upload_attestations"]));
  });

  it("allow one pending erase order per avatar, and a new one once it is done", async () => {
    const c = open(freshFile());
    await migrateAvatarTables(c);
    const order =
      "INSERT INTO avatar_erase_orders (subject, avatar_id, owner, ordered_at) VALUES ('owner:a@x.test', 'alice', 'a@x.test', 1) ON CONFLICT (subject, avatar_id) WHERE done_at IS NULL DO NOTHING";
    expect((await c.execute(order)).rowsAffected).toBe(1);
    expect((await c.execute(order)).rowsAffected).toBe(0);
    await c.execute("UPDATE avatar_erase_orders SET done_at = 2, done_by = 'local local'");
    expect((await c.execute(order)).rowsAffected).toBe(1);
    expect(Number((await c.execute("SELECT count(*) AS n FROM avatar_erase_orders")).rows[0].n)).toBe(2);
  });
});
