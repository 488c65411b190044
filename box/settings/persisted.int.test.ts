// Integration: `persisted` on GET /api/settings says whether saves work, not merely that the box
// has a volume: a settings table of the wrong shape (SQLite opens it fine) answers false.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { openBoxDb, type BoxDb } from "../db/client.ts";

let box: RunningBox;
let db: BoxDb;
const dataDir = mkdtempSync(join(tmpdir(), "box-persisted-"));

const get = async () =>
  (await (await fetch(box.url + "/api/settings")).json()) as { persisted: boolean; settings: Record<string, unknown> };
async function post(body: object) {
  const res = await fetch(box.url + "/api/settings", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { ok: boolean; saved: boolean } };
}

beforeAll(async () => {
  // A box.db the box made (migrations applied), whose settings table then lost its shape.
  db = await openBoxDb(dataDir);
  await db.client.execute("DROP TABLE settings_records");
  await db.client.execute("CREATE TABLE settings_records (subject text PRIMARY KEY, data text NOT NULL)");
  box = await spawnBox({}, { dataDir });
}, 60_000);
afterAll(async () => {
  await box?.stop();
  db.client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("persisted reflects whether saves work", () => {
  it("a wrong-shaped settings table: the box serves, saves answer saved: false and GET says persisted: false", async () => {
    expect((await get()).persisted).toBe(false);
    const r = await post({ system_prompt: "You are Ada." });
    expect(r).toEqual({ status: 200, json: expect.objectContaining({ ok: true, saved: false }) });
    expect((await get()).persisted).toBe(false);
    expect(box.stderr()).toContain("settings cannot be saved");
  });

  it("once the table is repaired, the next save works and persisted is true again", async () => {
    await db.client.execute("DROP TABLE settings_records");
    await db.client.execute(
      "CREATE TABLE settings_records (subject text PRIMARY KEY NOT NULL, record text NOT NULL, updated_at integer NOT NULL)",
    );
    const r = await post({ system_prompt: "You are Ada." });
    expect(r.json).toMatchObject({ ok: true, saved: true });
    expect((await get()).persisted).toBe(true);
  });
});
