// The own-avatar routes on the real route table, with a stand-in photo preparer (testing/route-rig.ts):
// ownership, delete, flags, the queue, restart and the volume's bounds. BOX_PHOTO_AVATAR=off is in
// own-routes-off.test.ts, the shared records in own-records.test.ts; the real preparer runs in
// own-avatars.int.test.ts.
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ownerDir } from "./ids.ts";
import { A, B, call, JPG, NO_FACE, type Rig, rig, subj, upload } from "./testing/route-rig.ts";

describe("own avatars on the route table", () => {
  let r: Rig;
  beforeAll(async () => (r = await rig(mkdtempSync(join(tmpdir(), "own-routes-")))));

  it("uploads, prepares off the request, and shows the face to its uploader only", async () => {
    const up = await upload(r, A, [
      ["file", [JPG, "Me.jpg"]],
      ["tones", "happy,cheerful"],
    ]);
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ avatar: "me", status: "preparing", tones: ["neutral", "happy"], active: "stock-ava" });
    expect(up.json!.note).toMatch(/cheerful/);
    await r.own.queue.idle();
    const mine = (await call(r, A, "GET", "/api/avatars")).json!;
    expect(mine.groups.find((g: any) => g.id === "me")).toMatchObject({
      stock: false,
      variants: ["me", "me__happy"],
      tones: ["neutral", "happy"],
      preview: "me",
    });
    expect(mine.avatars).toContain("me__happy");
    expect(mine.preparing).toEqual([]);
    expect(mine.builds.me.map((b: any) => b.state)).toEqual(["queued", "queued", "preparing", "preparing", "ready", "ready"]);
    const theirs = (await call(r, B, "GET", "/api/avatars")).json!;
    expect(theirs.groups.map((g: any) => g.id)).not.toContain("me");
    expect(theirs.builds).toEqual({});
    const vids = (await call(r, A, "GET", "/api/videos")).json!.videos;
    expect(vids.find((v: any) => v.id === "me__happy")).toMatchObject({
      status: "ready",
      kind: "photo",
      bytes: JPG.length,
      identity: "me",
      emotion: "happy",
      deletable: true,
      registry_note: null,
    });
    expect(vids.find((v: any) => v.id === "stock-ava")).toMatchObject({ bytes: null, deletable: false });
    expect((await call(r, B, "GET", "/api/videos")).json!.videos.some((v: any) => v.identity === "me")).toBe(false);
  });

  it("answers another credential exactly as for a missing avatar (preview, delete, resolve)", async () => {
    const preview = await call(r, A, "GET", "/api/avatar/preview?avatar=me");
    expect(preview.status).toBe(200);
    expect([...preview.bytes!.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const other = await call(r, B, "GET", "/api/avatar/preview?avatar=me");
    const none = await call(r, B, "GET", "/api/avatar/preview?avatar=nobody");
    expect(other.status).toBe(404);
    expect(other.json!.code).toBe(none.json!.code);
    expect(other.json!.error).toBe(none.json!.error.replace("nobody", "me"));
    const del = await call(r, B, "POST", "/api/avatar/delete", { avatar: "me" });
    expect(del.status).toBe(404);
    expect(del.json!.code).toBe("unknown_avatar");
    expect(r.registry.resolveFor(subj(B), "me")).toBeNull();
    expect(r.registry.resolveFor(subj(A), "me__happy")).toMatchObject({ avatarId: "me", tone: "happy", owner: subj(A) });
    expect(r.registry.resolveFor(subj(A), "me__sad")).toBeNull();
  });

  it("keeps the active face per caller: another caller sees the default stock face", async () => {
    const { runAsCaller } = await import("./caller.ts");
    runAsCaller(subj(A), () => (r.registry.active = "me__happy"));
    expect(runAsCaller(subj(A), () => r.registry.active)).toBe("me__happy");
    expect(runAsCaller(subj(B), () => r.registry.active)).toBe("stock-ava");
    expect(r.registry.active).toBe("stock-ava");
    runAsCaller(subj(B), () => (r.registry.active = "stock-ben"));
    expect(runAsCaller(subj(A), () => r.registry.active)).toBe("stock-ben");
  });

  it("two credentials uploading the same filename get two avatars", async () => {
    expect((await upload(r, B, [["file", [JPG, "me.jpg"]]])).json!.avatar).toBe("me");
    await r.own.queue.idle();
    expect(r.own.get(subj(B), "me")!.manifest.tones).toHaveLength(6);
    expect(r.own.get(subj(A), "me")!.manifest.tones).toEqual(["neutral", "happy"]);
    expect(existsSync(join(r.dataDir, "avatars", ownerDir(subj(A)), "me"))).toBe(true);
    expect(existsSync(join(r.dataDir, "avatars", ownerDir(subj(B)), "me"))).toBe(true);
  });

  it("a photo with no face ends failed with the preparer's sentence; its preview 404 says so", async () => {
    // The preparation waits at the gate, so "not ready yet" is seen whatever the machine's speed.
    let open!: () => void;
    r.gate.hold = new Promise((res) => (open = res));
    expect((await upload(r, A, [["file", [NO_FACE, "wall.png"]]])).status).toBe(200);
    const pending = await call(r, A, "GET", "/api/avatar/preview?avatar=wall");
    expect([pending.json!.code, pending.status]).toEqual(["avatar_not_ready", 404]);
    open();
    await r.own.queue.idle();
    r.gate.hold = null;
    const m = r.own.get(subj(A), "wall")!.manifest;
    expect(m).toMatchObject({ state: "failed", detail: "No face was found in the photo." });
    const avatars = (await call(r, A, "GET", "/api/avatars")).json!;
    expect(avatars.groups.map((g: any) => g.id)).not.toContain("wall");
    expect(avatars.builds.wall.at(-1)).toMatchObject({ state: "failed", detail: "No face was found in the photo." });
    const prev = await call(r, A, "GET", "/api/avatar/preview?avatar=wall");
    expect(prev.status).toBe(404);
    expect(prev.json).toMatchObject({ code: "avatar_failed", error: expect.stringMatching(/No face/) });
    expect(existsSync(join(r.dataDir, "avatars", ownerDir(subj(A)), "wall", "face.i420"))).toBe(false);
  });

  it("delete: 400 for a stock face, 409 on screen, 409 while it is being prepared, 200 otherwise with its files gone", async () => {
    expect((await call(r, A, "POST", "/api/avatar/delete", { avatar: "stock-ava" })).json).toMatchObject({ code: "stock_avatar" });
    expect((await call(r, A, "POST", "/api/avatar/delete", {})).status).toBe(400);
    r.onScreen.current = r.registry.resolveFor(subj(A), "me");
    expect((await call(r, A, "POST", "/api/avatar/delete", { avatar: "me__happy" })).json).toMatchObject({ code: "avatar_live" });
    r.onScreen.current = null;
    let open!: () => void;
    r.gate.hold = new Promise((res) => (open = res));
    await upload(r, A, [["file", [JPG, "slow.jpg"]]]);
    await new Promise((res) => setTimeout(res, 20));
    const busy = await call(r, A, "POST", "/api/avatar/delete", { avatar: "slow" });
    expect([busy.status, busy.json!.code]).toEqual([409, "avatar_preparing"]);
    const again = await upload(r, A, [["file", [JPG, "slow.jpg"]]]);
    expect([again.status, again.json!.code]).toEqual([409, "avatar_preparing"]);
    // Waiting (not started) jobs are dropped with their avatar; past the queue's capacity is 409.
    for (const n of ["q1", "q2", "q3"]) expect((await upload(r, A, [["file", [JPG, `${n}.jpg`]]])).status).toBe(200);
    expect((await upload(r, A, [["file", [JPG, "q4.jpg"]]])).json).toMatchObject({ code: "preparation_queue_full" });
    expect((await call(r, A, "POST", "/api/avatar/delete", { avatar: "q2" })).status).toBe(200);
    r.gate.hold = null;
    open();
    await r.own.queue.idle();
    expect(r.own.get(subj(A), "q2")).toBeNull();
    expect(r.own.get(subj(A), "q3")!.manifest.state).toBe("ready");
    const del = await call(r, A, "POST", "/api/avatar/delete", { avatar: "me" });
    expect(del.status).toBe(200);
    expect(del.json).toMatchObject({ deleted: "me", active: expect.any(String) });
    expect(del.json!.videos.some((v: any) => v.identity === "me")).toBe(false);
    expect(existsSync(join(r.dataDir, "avatars", ownerDir(subj(A)), "me"))).toBe(false);
    expect(r.own.get(subj(B), "me")).not.toBeNull();
  });

  it("reads framing and gesture_amplitude only when tone builds are planned", async () => {
    const bad = await upload(r, A, [
      ["file", [JPG, "f.jpg"]],
      ["framing", "panorama"],
    ]);
    expect([bad.status, bad.json!.error]).toEqual([400, expect.stringMatching(/head, face, bust/)]);
    expect(
      (
        await upload(r, A, [
          ["file", [JPG, "f.jpg"]],
          ["gesture_amplitude", "wild"],
        ])
      ).status,
    ).toBe(400);
    const ok = await upload(r, A, [
      ["file", [JPG, "f.jpg"]],
      ["framing", "Bust"],
      ["gesture_amplitude", "0.5"],
      ["consent_token", "c1"],
    ]);
    expect(ok.status).toBe(200);
    await r.own.queue.idle();
    expect(r.own.get(subj(A), "f")!.manifest).toMatchObject({
      framing: "bust",
      gesture_amplitude: 0.5,
      consent_token: "c1",
      builds_planned: true,
    });
    expect(r.registry.resolveFor(subj(A), "f")!.gestureAmplitude).toBe(0.5);
  });

  it("photo_avatar.create: nested refusals, then a ready avatar under the explicit id", async () => {
    const noId = await upload(r, A, [["file", [JPG, "p.jpg"]]], "/v1/photo_avatar.create");
    expect(noId).toMatchObject({ status: 400, json: { error: { code: "missing_avatar_id", message: expect.any(String) } } });
    const noFile = await upload(r, A, [["avatar_id", "p"]], "/v1/photo_avatar.create");
    expect(noFile.json!.error.code).toBe("missing_file");
    const stock = await upload(
      r,
      A,
      [
        ["file", [JPG, "p.jpg"]],
        ["avatar_id", "stock-ava"],
      ],
      "/v1/photo_avatar.create",
    );
    expect(stock.json!.error.code).toBe("invalid_avatar_id");
    const made = await upload(
      r,
      A,
      [
        ["file", [JPG, "whatever.jpg"]],
        ["avatar_id", "presenter"],
      ],
      "/v1/photo_avatar.create",
    );
    expect(made).toMatchObject({ status: 200, json: { data: { avatar_id: "presenter", clips: [] } } });
    expect(r.own.get(subj(A), "presenter")!.manifest.state).toBe("ready");
    const failed = await upload(
      r,
      A,
      [
        ["file", [NO_FACE, "x.png"]],
        ["avatar_id", "blank"],
      ],
      "/v1/photo_avatar.create",
    );
    expect(failed).toMatchObject({ status: 400, json: { error: { code: "unusable_source", message: "No face was found in the photo." } } });
  });

  it("a restart loads every prepared face and prepares again what was cut off", async () => {
    const m = r.own.get(subj(A), "q3")!.manifest;
    // As if the box died mid-preparation: the manifest says preparing, the face files are gone.
    await r.own.store.saveManifest({ ...m, avatar_id: "q1", state: "preparing" }).catch(() => undefined);
    const again = await rig(r.dataDir);
    expect(again.own.get(subj(A), "presenter")!.face).not.toBeNull();
    expect(again.registry.resolveFor(subj(A), "presenter")).not.toBeNull();
    expect(again.registry.resolveFor(subj(B), "me__sad")).not.toBeNull();
    await again.own.queue.idle();
    expect(again.own.get(subj(A), "q1")!.manifest.state).toBe("ready");
    expect(again.own.get(subj(A), "wall")!.manifest.state).toBe("failed");
  });

  it("never writes outside the volume's avatars folder, whatever the filename", async () => {
    const names = ["../x.png", "a/b.jpg", ".png", "ünï çødé.jpg", "..\\..\\evil.jpg", "写真.jpg"];
    const ids: string[] = [];
    for (const n of names) {
      const res = await upload(r, B, [
        ["file", [JPG, n]],
        ["tones", "neutral"],
      ]);
      expect(res.status, n).toBe(200);
      ids.push(res.json!.avatar);
    }
    await r.own.queue.idle();
    expect(ids.slice(0, 2)).toEqual(["x", "b"]);
    expect(ids[3]).toBe("uni-c-de"); // ø has no decomposition: dropped
    expect(ids[2]).toMatch(/^avatar-[0-9a-f]{10}$/);
    const top = readdirSync(r.dataDir);
    expect(top).toEqual(["avatars"]);
    const owners = readdirSync(join(r.dataDir, "avatars")).filter((n) => n !== ".incoming");
    expect(readdirSync(join(r.dataDir, "avatars", ".incoming"))).toEqual([]);
    for (const o of owners) expect(o).toMatch(/^o-[0-9a-f]{32}$/);
    for (const id of readdirSync(join(r.dataDir, "avatars", ownerDir(subj(B))))) expect(id).toMatch(/^[a-z0-9-]+$/);
  });
});
