// Integration: a real Bun box given BOX_ASSET_DIR archives what it finishes into the portal's
// `file` store folder: a photo avatar's portrait when it becomes ready, then each clip it builds;
// the portal (same shared database, same folder) lists them for their owner and serves them at
// signed paths. A box whose archive folder cannot be written still prepares the avatar.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clipKey, portraitKey } from "../../../shared/asset-layout/asset-keys.ts";
import { FileAssetStore } from "../../../portal/storage/file-store.ts";
import { createTestDb, createTestPortal, type TestPortal } from "../../../portal/testing/test-portal.ts";
import { sha256Hex } from "../../auth/principal.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";
import { ownerDir } from "../own/ids.ts";

const KEY = "archive_key_ada";
const OWNER = "ada@x.test";
const DEMO = new URL("../../../node_modules/@vladmandic/face-api/demo/", import.meta.url);
const PHOTO = new Uint8Array(readFileSync(new URL("sample2.jpg", DEMO)));
const work = mkdtempSync(join(tmpdir(), "archive-int-"));
const assetDir = join(work, "assets");
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

let db: Awaited<ReturnType<typeof createTestDb>>;
let box: RunningBox;
let portal: TestPortal;

async function call(b: RunningBox, method: string, path: string, body?: FormData | object) {
  const headers: Record<string, string> = { "x-api-key": KEY };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) (payload = JSON.stringify(body)), (headers["content-type"] = "application/json");
  const res = await fetch(b.url + path, { method, headers, body: payload });
  const type = res.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, json: type.includes("json") ? JSON.parse(new TextDecoder().decode(bytes)) : null };
}

function upload(b: RunningBox, name: string, tones: string) {
  const f = new FormData();
  f.append("file", new File([PHOTO as Uint8Array<ArrayBuffer>], name));
  f.append("tones", tones);
  f.append("consent_token", "c_ok");
  return call(b, "POST", "/api/avatar", f);
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined> | T | null | undefined, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const ready = (b: RunningBox, id: string) =>
  until(`${id} to be ready`, async () => {
    const { json } = await call(b, "GET", "/api/avatars");
    if (json.builds?.[id]?.some?.((e: { state: string }) => e.state === "failed"))
      throw new Error(`${id} failed: ${JSON.stringify(json.builds[id])}`);
    return json.groups.some((g: { id: string }) => g.id === id);
  });

const onVolume = (b: RunningBox, id: string, ...file: string[]) =>
  join(b.dataDir, "avatars", ownerDir(`key:${sha256Hex(KEY)}`), id, ...file);
const inArchive = async (key: Promise<string>) => join(assetDir, ...(await key).split("/"));

beforeAll(async () => {
  db = await createTestDb(false);
  await db.client.execute({
    sql: "INSERT INTO credentials (id, kind, scope, owner, created_at) VALUES (?, 'api_key', 'full', ?, 0)",
    args: [sha256Hex(KEY), OWNER],
  });
  await db.client.execute({
    sql: "INSERT INTO upload_attestations (consent_id, sha256, attested_at, source_kind) VALUES ('c_ok', ?, 0, 'photo')",
    args: [sha(PHOTO)],
  });
  box = await spawnBox({ BOX_KEY_TABLE_URL: db.url, BOX_ASR: "none", BOX_ASSET_DIR: assetDir });
  portal = await createTestPortal({ assetStore: (urls) => new FileAssetStore(assetDir, urls) }, { ...db, dispose: () => undefined });
}, 120_000);

afterAll(async () => {
  await box?.stop();
  db?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("box archiving into BOX_ASSET_DIR", () => {
  it("a prepared photo avatar's portrait appears under the asset folder, the same bytes as the box's preview", async () => {
    expect((await upload(box, "ada.jpg", "neutral,happy")).status).toBe(200);
    await ready(box, "ada");
    const file = await inArchive(portraitKey(OWNER, "ada"));
    await until("the archived portrait", () => existsSync(file), 30_000);
    const archived = new Uint8Array(readFileSync(file));
    expect([...archived.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(sha(archived)).toBe(sha(new Uint8Array(readFileSync(onVolume(box, "ada", "preview.png")))));
    // The line is logged just after the file lands.
    await until("the archive log line", () => box.stderr().includes('"msg":"avatar media archived"'), 10_000);
  }, 150_000);

  it("a clip build adds its MP4", async () => {
    const r = await call(box, "POST", "/api/avatar/clips/retry", { avatar: "ada", tone: "happy" });
    expect(r.status).toBe(202);
    const file = await inArchive(clipKey(OWNER, "ada", "happy"));
    await until("the archived clip", () => existsSync(file), 120_000);
    const served = await call(box, "GET", "/api/avatar/clip?avatar=ada&tone=happy");
    expect(served.status).toBe(200);
    expect(sha(new Uint8Array(readFileSync(file)))).toBe(sha(served.bytes));
  }, 150_000);

  it("the portal lists both for their owner and serves them at signed paths; nobody else sees them", async () => {
    const cookie = await portal.signIn(OWNER);
    const res = await portal.app.request("/auth/avatars/ada/assets", { headers: { cookie } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.assets.map((a: { kind: string; filename: string }) => `${a.kind} ${a.filename}`)).toEqual([
      "image portrait.png",
      "video clip-happy.mp4",
    ]);
    for (const a of body.assets) {
      const got = await portal.app.request(a.url);
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toBe(a.kind === "image" ? "image/png" : "video/mp4");
      expect((await got.arrayBuffer()).byteLength).toBe(a.size_bytes);
    }
    const other = await portal.signIn("bob@x.test");
    expect((await portal.app.request("/auth/avatars/ada/assets", { headers: { cookie: other } })).status).toBe(404);
  });

  it("a box whose archive folder cannot be written still prepares the avatar, and says why it did not archive", async () => {
    const blocked = join(work, "not-a-folder");
    writeFileSync(blocked, "a file where the folder should be");
    const b = await spawnBox({ BOX_KEY_TABLE_URL: db.url, BOX_ASR: "none", BOX_ASSET_DIR: blocked });
    try {
      expect((await upload(b, "cy.jpg", "neutral")).status).toBe(200);
      await ready(b, "cy");
      expect(existsSync(onVolume(b, "cy", "preview.png"))).toBe(true);
      await until("the archive failure to be logged", () => b.stderr().includes('"msg":"avatar media not archived"'), 30_000);
      expect(b.stderr()).toMatch(/"msg":"avatar media not archived".*"what":"portrait"/);
    } finally {
      await b.stop();
    }
  }, 150_000);
});
