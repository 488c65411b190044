// The Deno entry applies the Bun entry's migrations through drizzle's web driver
// (portal/deno/libsql.ts): the same tables, indexes and migration records, in either order, so the
// two entries can share one database and neither re-applies what the other did. A migration set
// added to portal/db/migrate.ts and not to PORTAL_MIGRATION_SETS fails here.
import { createClient, type Client } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { migratePortalDb } from "./db/migrate.ts";
import { migratePortalDbForDeno, PORTAL_MIGRATION_SETS } from "./deno/libsql.ts";

const open: Client[] = [];
const fresh = () => {
  const c = createClient({ url: ":memory:" });
  open.push(c);
  return c;
};
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

async function schema(c: Client) {
  const objects = await c.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name");
  const applied: Record<string, unknown[]> = {};
  for (const { table } of PORTAL_MIGRATION_SETS) {
    applied[table] = (await c.execute(`SELECT hash, created_at FROM "${table}" ORDER BY id`)).rows.map((r) => [r.hash, r.created_at]);
  }
  return { objects: objects.rows.map((r) => [r.type, r.name, r.tbl_name, r.sql]), applied };
}

describe("the Deno entry's migrations", () => {
  it("give the same schema and migration records as the Bun entry's", async () => {
    const bun = fresh();
    const deno = fresh();
    await migratePortalDb(bun);
    await migratePortalDbForDeno(deno);
    const expected = await schema(bun);
    expect(expected.objects.length).toBeGreaterThan(10);
    for (const rows of Object.values(expected.applied)) expect(rows.length).toBeGreaterThan(0);
    expect(await schema(deno)).toEqual(expected);
  });

  it("apply nothing twice on a database the other entry migrated, in either order", async () => {
    const reference = fresh();
    await migratePortalDb(reference);
    const expected = await schema(reference);
    const a = fresh();
    await migratePortalDb(a);
    await migratePortalDbForDeno(a);
    expect(await schema(a)).toEqual(expected);
    const b = fresh();
    await migratePortalDbForDeno(b);
    await migratePortalDb(b);
    expect(await schema(b)).toEqual(expected);
  });
});
