// The own avatars' shared records (testing/route-rig.ts): each state change observed, and erase
// orders drained at the next start.
import { createClient } from "@libsql/client";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ownerDir } from "./ids.ts";
import { SharedRecords } from "./shared-records.ts";
import { sha256Hex as bytesSha } from "./store.ts";
import { migrateAvatarTables } from "../../../shared/avatar-tables/migrate.ts";
import { A, JPG, rig, subj, upload } from "./testing/route-rig.ts";

describe("shared records: observations and erase orders", () => {
  const dir = mkdtempSync(join(tmpdir(), "own-shared-"));
  const url = `file:${join(dir, "shared.db")}`;
  const client = createClient({ url });
  afterAll(() => client.close());

  it("observes each state change, and drains an erase order at the next start", async () => {
    await migrateAvatarTables(client);
    const records = new SharedRecords(client, true, false);
    await client.execute({
      sql: "INSERT INTO upload_attestations (consent_id, sha256, attested_at, source_kind) VALUES (?, ?, ?, 'photo')",
      args: ["consent-1", bytesSha(JPG), 1],
    });
    const r = await rig(join(dir, "box"), { records });
    await upload(r, A, [
      ["file", [JPG, "obs.jpg"]],
      ["consent_token", "consent-1"],
    ]);
    await r.own.queue.idle();
    await new Promise((res) => setTimeout(res, 50));
    const row = (await client.execute("SELECT subject, avatar_id, name, source_kind, state, consent_id FROM avatar_observations")).rows[0];
    expect({ ...row }).toMatchObject({
      subject: subj(A),
      avatar_id: "obs",
      name: "obs.jpg",
      source_kind: "photo",
      state: "ready",
      consent_id: "consent-1",
    });
    await client.execute({
      sql: "INSERT INTO avatar_erase_orders (subject, avatar_id, owner, ordered_at) VALUES (?, ?, NULL, 1)",
      args: [subj(A), "obs"],
    });
    const after = await rig(join(dir, "box"), { records });
    expect(after.own.get(subj(A), "obs")).toBeNull();
    expect(existsSync(join(dir, "box", "avatars", ownerDir(subj(A)), "obs"))).toBe(false);
    const order = (await client.execute("SELECT done_at, done_by FROM avatar_erase_orders")).rows[0];
    expect(order.done_at).not.toBeNull();
  });

  it("a re-upload under an erased id before the next start is listed, and that start keeps it", async () => {
    const records = new SharedRecords(client, true, false);
    const box = join(dir, "box-reupload");
    const r = await rig(box, { records });
    const row = async () =>
      (
        await client.execute({
          sql: "SELECT name, state FROM avatar_observations WHERE subject = ? AND avatar_id = 'again'",
          args: [subj(A)],
        })
      ).rows[0];
    const until = async (what: string, ok: () => Promise<boolean>) => {
      for (const deadline = Date.now() + 10_000; !(await ok()); await new Promise((res) => setTimeout(res, 20)))
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    };
    expect((await upload(r, A, [["file", [JPG, "again.jpg"]]])).status).toBe(200);
    await r.own.queue.idle();
    await until("the first observation", async () => (await row())?.state === "ready");
    const clips = join(box, "avatars", ownerDir(subj(A)), "again", "clips");
    mkdirSync(clips);
    writeFileSync(join(clips, "clip-happy.mp4"), "the old face's clip");
    // The portal's erasure (DELETE /auth/avatars/again): one order from the listed row, the row goes.
    await client.batch([
      {
        sql: "INSERT OR IGNORE INTO avatar_erase_orders (subject, avatar_id, owner, ordered_at) SELECT subject, avatar_id, owner, 5 FROM avatar_observations WHERE subject = ? AND avatar_id = 'again'",
        args: [subj(A)],
      },
      { sql: "DELETE FROM avatar_observations WHERE subject = ? AND avatar_id = 'again'", args: [subj(A)] },
    ]);
    // The same file name again, before the box restarts: a new avatar under the erased id.
    expect(
      (
        await upload(r, A, [
          ["file", [JPG, "again.jpg"]],
          ["tones", "neutral"],
        ])
      ).status,
    ).toBe(200);
    await r.own.queue.idle();
    await until("the new upload to be listed", async () => (await row())?.state === "ready");
    expect(existsSync(clips)).toBe(false); // nothing of the erased face is left for its order
    const orders = (
      await client.execute({ sql: "SELECT done_at FROM avatar_erase_orders WHERE subject = ? AND avatar_id = 'again'", args: [subj(A)] })
    ).rows;
    expect(orders.map((o) => o.done_at !== null)).toEqual([true]);
    const after = await rig(box, { records });
    expect(after.own.get(subj(A), "again")?.manifest).toMatchObject({ state: "ready", tones: ["neutral"] });
    expect(await row()).toMatchObject({ state: "ready" });
  });
});
