// The own-avatar routes on the real route table (createBoxApp + app.handle, no port), with a
// stand-in photo preparer so the rules are tested fast: ownership, delete, flags, the queue,
// restart, erase orders and observations. The real preparer runs in own-avatars.int.test.ts.
import { createClient } from "@libsql/client";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePng } from "../../render/png.ts";
import type { FaceRenderer } from "../../render/face-renderer.ts";
import { createBoxApp } from "../../app.ts";
import { Authenticator, sha256Hex } from "../../auth/principal.ts";
import { AvatarRegistry, type ResolvedAvatar } from "../registry.ts";
import { avatarRoutes } from "../routes.ts";
import { loadStockFaces } from "../stock/index.ts";
import { withCallers } from "./caller.ts";
import { ownerDir } from "./ids.ts";
import { OwnAvatars, type OwnAvatarsOptions } from "./own-avatars.ts";
import type { PhotoPrepared } from "./preparers.ts";
import { SharedRecords } from "./shared-records.ts";
import { sha256Hex as bytesSha } from "./store.ts";
import { migrateAvatarTables } from "../../../shared/avatar-tables/migrate.ts";

const SIZE = 64;
const JPG = readFileSync(new URL("../../../node_modules/@vladmandic/face-api/demo/sample2.jpg", import.meta.url));
const NO_FACE = encodePng(new Uint8Array(40 * 40 * 4).fill(30), 40, 40);
const A = "key_alpha";
const B = "key_beta";
const subj = (k: string) => `key:${sha256Hex(k)}`;

class PhotoFaceError extends Error {
  override name = "PhotoFaceError";
}

interface Rig {
  app: ReturnType<typeof createBoxApp>;
  own: OwnAvatars;
  registry: AvatarRegistry;
  dataDir: string;
  onScreen: { current: ResolvedAvatar | null };
  gate: { hold: Promise<void> | null };
}

async function rig(dataDir: string, extra: Partial<OwnAvatarsOptions> = {}): Promise<Rig> {
  const stock = (await loadStockFaces(SIZE))[0].face;
  const gate: Rig["gate"] = { hold: null };
  const own = await OwnAvatars.open({
    dataDir,
    size: SIZE,
    // Stand-in: a "photo" whose first pixel row is dark has no face; anything else is the stock face.
    preparePhoto: async (bytes): Promise<PhotoPrepared> => {
      if (gate.hold) await gate.hold;
      if (Buffer.from(bytes).equals(Buffer.from(NO_FACE))) throw new PhotoFaceError("No face was found in the photo.");
      return { face: stock, facesFound: 1, detail: "1 face found", landmarks: [] };
    },
    isPhotoError: (e) => e instanceof PhotoFaceError,
    renderStill: async (face) => encodePng(face.i420, face.width, face.height),
    photoAvatar: true,
    framings: ["head", "face", "bust"],
    records: null,
    queueCapacity: 3,
    ...extra,
  });
  const registry = await AvatarRegistry.load({ width: SIZE } as FaceRenderer, own);
  const onScreen = { current: null as ResolvedAvatar | null };
  const routes = avatarRoutes(registry, { onScreen: () => onScreen.current });
  const app = createBoxApp({ auth: new Authenticator([A, B], null), allowedOrigins: [], routes: withCallers(routes) });
  return { app, own, registry, dataDir, onScreen, gate };
}

function upload(r: Rig, key: string, parts: [string, string | [Uint8Array | Buffer, string]][], path = "/api/avatar") {
  const f = new FormData();
  for (const [name, v] of parts) f.append(name, typeof v === "string" ? v : new File([v[0] as Uint8Array<ArrayBuffer>], v[1]));
  return call(r, key, "POST", path, f);
}

async function call(r: Rig, key: string, method: string, path: string, body?: FormData | object) {
  const init: RequestInit = { method, headers: { "x-api-key": key } };
  if (body instanceof FormData) init.body = body;
  else if (body) (init.body = JSON.stringify(body)), ((init.headers as Record<string, string>)["content-type"] = "application/json");
  const res = await r.app.handle(new Request(`http://localhost${path}`, init));
  const type = res.headers.get("content-type") ?? "";
  return {
    status: res.status,
    json: type.includes("json") ? ((await res.json()) as Record<string, any>) : null,
    bytes: type.includes("json") ? null : new Uint8Array(await res.arrayBuffer()),
  };
}

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

describe("BOX_PHOTO_AVATAR=off", () => {
  let r: Rig;
  beforeAll(async () => (r = await rig(mkdtempSync(join(tmpdir(), "own-off-")), { photoAvatar: false })));

  it("answers every photo_avatar.create with 501 feature_disabled, nested", async () => {
    for (const parts of [
      [],
      [
        ["file", [JPG, "p.jpg"]],
        ["avatar_id", "p"],
      ],
    ] as [string, string | [Buffer, string]][][]) {
      const res = await upload(r, A, parts, "/v1/photo_avatar.create");
      expect(res).toMatchObject({ status: 501, json: { error: { code: "feature_disabled", message: expect.any(String) } } });
    }
  });

  it("still takes a photo upload: the base face alone, and the build parameters are never read", async () => {
    const res = await upload(r, A, [
      ["file", [JPG, "p.jpg"]],
      ["tones", "happy"],
      ["framing", "nonsense"],
      ["gesture_amplitude", "wild"],
      ["consent_token", "c"],
    ]);
    expect(res).toMatchObject({ status: 200, json: { tones: ["neutral"], note: expect.stringMatching(/off/) } });
    await r.own.queue.idle();
    expect(r.own.get(subj(A), "p")!.manifest).toMatchObject({
      state: "ready",
      framing: null,
      gesture_amplitude: null,
      consent_token: null,
      builds_planned: false,
    });
  });
});

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
