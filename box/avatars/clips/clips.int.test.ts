// Integration: clips on the real box. A real photograph uploaded with a consent token whose
// attestation (a row of the shared database) matches its bytes gets an H.264 idle clip per tone;
// the refusals come in the spec's order and the nested envelope; another credential's avatar is a
// 404; a mismatched digest is 403; clips off is 501; photo_avatar.create answers clip objects.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateKeyTable } from "../../../shared/key-table/migrate.ts";
import { migrateAvatarTables } from "../../../shared/avatar-tables/migrate.ts";
import { sha256Hex } from "../../auth/principal.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";

const A = "clip_key_a";
const B = "clip_key_b";
const DEMO = new URL("../../../node_modules/@vladmandic/face-api/demo/", import.meta.url);
const PHOTO = new Uint8Array(readFileSync(new URL("sample2.jpg", DEMO)));
const OTHER = new Uint8Array(readFileSync(new URL("sample3.jpg", DEMO)));
const work = mkdtempSync(join(tmpdir(), "clips-int-"));
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

let box: RunningBox;
let db: Client;

async function call(key: string, method: string, path: string, body?: FormData | object) {
  const headers: Record<string, string> = { "x-api-key": key };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) (payload = JSON.stringify(body)), (headers["content-type"] = "application/json");
  const res = await fetch(box.url + path, { method, headers, body: payload });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get("content-type") ?? "";
  return {
    status: res.status,
    type,
    cache: res.headers.get("cache-control"),
    bytes,
    json: type.includes("json") ? JSON.parse(new TextDecoder().decode(bytes)) : null,
  };
}

function form(parts: Record<string, string | [Uint8Array, string]>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(parts)) f.append(k, typeof v === "string" ? v : new File([v[0] as Uint8Array<ArrayBuffer>], v[1]));
  return f;
}

async function ready(key: string, avatar: string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { json } = await call(key, "GET", "/api/avatars");
    if (json.groups.some((g: { id: string }) => g.id === avatar)) return;
    if (Date.now() > deadline) throw new Error(`${avatar} never became ready: ${JSON.stringify(json.builds[avatar])}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function generated(key: string, avatar: string, tone: string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { json } = await call(key, "GET", `/api/avatar/clips?avatar=${avatar}`);
    const row = json.clips.find((c: { tone: string }) => c.tone === tone);
    if (row?.state !== "generating") return row;
    if (Date.now() > deadline) throw new Error(`the ${tone} clip of ${avatar} never finished`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  const url = `file:${join(work, "shared.db")}`;
  db = createClient({ url });
  await migrateKeyTable(db);
  await migrateAvatarTables(db);
  for (const k of [A, B])
    await db.execute({
      sql: "INSERT INTO credentials (id, kind, scope, owner, created_at) VALUES (?, 'api_key', 'full', ?, 0)",
      args: [sha256Hex(k), `${k}@x.test`],
    });
  await db.execute({
    sql: "INSERT INTO upload_attestations (consent_id, sha256, attested_at, source_kind) VALUES ('c_ok', ?, 0, 'photo'), ('c_other', ?, 0, 'photo')",
    args: [sha(PHOTO), sha(OTHER)],
  });
  box = await spawnBox({ BOX_KEY_TABLE_URL: url, BOX_ASR: "none" });
  expect(
    (await call(A, "POST", "/api/avatar", form({ file: [PHOTO, "ada.jpg"], tones: "neutral,happy", consent_token: "c_ok" }))).status,
  ).toBe(200);
  expect(
    (await call(A, "POST", "/api/avatar", form({ file: [PHOTO, "bob.jpg"], tones: "neutral", consent_token: "c_other" }))).status,
  ).toBe(200);
  expect((await call(A, "POST", "/api/avatar", form({ file: [PHOTO, "cy.jpg"], tones: "neutral" }))).status).toBe(200);
  for (const id of ["ada", "bob", "cy"]) await ready(A, id);
}, 240_000);

afterAll(async () => {
  await box?.stop();
  db?.close();
});

describe("clips", () => {
  it("a photo with a matching attestation: 202 generating, then an H.264 MP4 served with private caching", async () => {
    expect((await call(A, "GET", "/api/avatar/clips?avatar=ada")).json).toEqual({ avatar: "ada", clips: [] });
    const r = await call(A, "POST", "/api/avatar/clips/retry", { avatar: "ada__happy", tone: "happy" });
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ avatar: "ada", tone: "happy", variant_id: "ada__happy", state: "generating" });
    const again = await call(A, "POST", "/api/avatar/clips/retry", { avatar: "ada", tone: "happy" });
    expect([again.status, again.json?.error?.code]).toEqual([409, "clip_already_generating"]);
    const row = await generated(A, "ada", "happy");
    expect(row).toEqual({
      tone: "happy",
      state: "generated",
      variant_id: "ada__happy",
      duration_s: expect.any(Number),
      updated_at: expect.any(Number),
      detail: "",
    });
    // Only the tone asked for is listed: neutral was never requested.
    expect((await call(A, "GET", "/api/avatar/clips?avatar=ada")).json.clips.map((c: { tone: string }) => c.tone)).toEqual(["happy"]);
    const mp4 = await call(A, "GET", "/api/avatar/clip?avatar=ada&tone=happy");
    expect(mp4.status).toBe(200);
    expect(mp4.type).toBe("video/mp4");
    expect(mp4.cache).toMatch(/private/);
    const file = join(work, "ada-happy.mp4");
    writeFileSync(file, mp4.bytes);
    const probe = JSON.parse(
      spawnSync(
        "/usr/bin/ffprobe",
        ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,r_frame_rate:format=duration", "-of", "json", file],
        { encoding: "utf8" },
      ).stdout,
    );
    expect(probe.streams[0]).toMatchObject({ codec_name: "h264", r_frame_rate: "25/1" });
    expect(Number(probe.format.duration)).toBeCloseTo(row.duration_s, 1);
    // A frame of it is a picture of the face, not a blank: look at it under .cache/.
    spawnSync("/usr/bin/ffmpeg", [
      "-v",
      "error",
      "-y",
      "-i",
      file,
      "-vf",
      "select=eq(n\\,30)",
      "-frames:v",
      "1",
      join(process.cwd(), ".cache", "clip-ada-happy.png"),
    ]);
  }, 120_000);

  it("refuses in the spec's order, in the nested envelope", async () => {
    const code = async (key: string, body: object) => {
      const r = await call(key, "POST", "/api/avatar/clips/retry", body);
      return [r.status, r.json?.error?.code, typeof r.json?.error?.message];
    };
    expect(await code(A, { avatar: "nobody", tone: "grumpy" })).toEqual([404, "unknown_avatar", "string"]);
    expect(await code(B, { avatar: "ada", tone: "happy" })).toEqual([404, "unknown_avatar", "string"]); // not yours = missing
    expect(await code(A, { avatar: "ada", tone: "grumpy" })).toEqual([400, "unknown_tone", "string"]);
    expect(await code(A, { avatar: "ada", tone: "sad" })).toEqual([400, "unknown_tone", "string"]); // not built for ada
    expect(await code(A, { avatar: "bob", tone: "neutral" })).toEqual([403, "consent_required", "string"]); // digest mismatch
    expect(await code(A, { avatar: "cy", tone: "neutral" })).toEqual([403, "consent_required", "string"]); // no attestation
    expect((await call(B, "GET", "/api/avatar/clips?avatar=ada")).status).toBe(404);
    expect((await call(B, "GET", "/api/avatar/clip?avatar=ada")).json).toEqual({
      error: { code: "unknown_avatar", message: expect.any(String) },
    });
    const missing = await call(A, "GET", "/api/avatar/clip?avatar=ada&tone=neutral");
    expect([missing.status, missing.json.error.code]).toEqual([404, "clip_not_found"]);
  }, 60_000);

  it("a stock face needs no consent; with clips off every build is 501", async () => {
    const stockId = (await call(B, "GET", "/api/avatars")).json.groups[0].id;
    expect((await call(B, "POST", "/api/avatar/clips/retry", { avatar: stockId, tone: "serious" })).status).toBe(202);
    expect((await generated(B, stockId, "serious")).state).toBe("generated");
    const off = await spawnBox({ BOX_API_KEYS: A, BOX_AVATAR_CLIPS: "off", BOX_ASR: "none" });
    try {
      const r = await fetch(off.url + "/api/avatar/clips/retry", {
        method: "POST",
        headers: { "x-api-key": A, "content-type": "application/json" },
        body: JSON.stringify({ avatar: stockId, tone: "bogus" }),
      });
      expect([r.status, ((await r.json()) as any).error.code]).toEqual([400, "unknown_tone"]);
      const r2 = await fetch(off.url + "/api/avatar/clips/retry", {
        method: "POST",
        headers: { "x-api-key": A, "content-type": "application/json" },
        body: JSON.stringify({ avatar: stockId, tone: "happy" }),
      });
      expect([r2.status, ((await r2.json()) as any).error.code]).toEqual([501, "avatar_clips_unavailable"]);
    } finally {
      await off.stop();
    }
  }, 120_000);

  it("photo_avatar.create holds until every clip renders and answers the clip objects", async () => {
    const r = await call(
      A,
      "POST",
      "/v1/photo_avatar.create",
      form({ file: [PHOTO, "whatever.jpg"], avatar_id: "dee", tones: "neutral,sad", consent_token: "c_ok" }),
    );
    expect(r.status).toBe(200);
    expect(r.json.data.avatar_id).toBe("dee");
    expect(r.json.data.clips.map((c: { tone: string }) => c.tone).sort()).toEqual(["neutral", "sad"]);
    for (const c of r.json.data.clips) {
      expect(c).toEqual({
        tone: c.tone,
        template: "idle_loop",
        path: expect.stringContaining("/api/avatar/clip?avatar=dee"),
        duration_s: expect.any(Number),
        fps: 25,
        loop_frame: 0,
        avatar_id: c.tone === "neutral" ? "dee" : "dee__sad",
        queued: false,
      });
      expect((await call(A, "GET", c.path)).type).toBe("video/mp4");
    }
  }, 180_000);
});
