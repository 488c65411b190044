// Integration: erasure against a running box that archives into the portal's `file` store (one
// shared database, one asset folder). A clip build running when the person erases the avatar is
// discarded and archives nothing; later clip requests are refused. A new upload under the erased id
// before the box restarts is listed by the portal, and the restart keeps it.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { avatarPrefix } from "../../../shared/asset-layout/asset-keys.ts";
import { FileAssetStore } from "../../../portal/storage/file-store.ts";
import { createTestDb, createTestPortal, type TestPortal } from "../../../portal/testing/test-portal.ts";
import { sha256Hex } from "../../auth/principal.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";

const KEY = "erase_key_ada";
const OWNER = "ada@x.test";
const DEMO = new URL("../../../node_modules/@vladmandic/face-api/demo/", import.meta.url);
const PHOTO = new Uint8Array(readFileSync(new URL("sample2.jpg", DEMO)));
const work = mkdtempSync(join(tmpdir(), "erase-int-"));
const assetDir = join(work, "assets");
const boxData = join(work, "box");
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

let db: Awaited<ReturnType<typeof createTestDb>>;
let box: RunningBox;
let portal: TestPortal;
let cookie: string;

async function call(method: string, path: string, body?: FormData | object) {
  const headers: Record<string, string> = { "x-api-key": KEY };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) (payload = JSON.stringify(body)), (headers["content-type"] = "application/json");
  const res = await fetch(box.url + path, { method, headers, body: payload });
  const type = res.headers.get("content-type") ?? "";
  return { status: res.status, json: type.includes("json") ? ((await res.json()) as any) : null };
}

function upload(name: string, tones: string) {
  const f = new FormData();
  f.append("file", new File([PHOTO as Uint8Array<ArrayBuffer>], name));
  f.append("tones", tones);
  f.append("consent_token", "c_ok");
  return call("POST", "/api/avatar", f);
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms = 120_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ready = (id: string) =>
  until(`${id} to be ready`, async () => (await call("GET", "/api/avatars")).json.groups.some((g: { id: string }) => g.id === id));
const clipRows = async (id: string) =>
  (await call("GET", `/api/avatar/clips?avatar=${id}`)).json.clips as { tone: string; state: string; detail: string }[];
const library = async () =>
  (
    (await (await portal.app.request("/auth/avatars", { headers: { cookie } })).json()) as {
      avatars: { avatar_id: string; state: string }[];
    }
  ).avatars;
const archived = async (id: string) => {
  const dir = join(assetDir, ...(await avatarPrefix(OWNER, id)).split("/"));
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith(".")) : [];
};

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
  box = await spawnBox({ BOX_KEY_TABLE_URL: db.url, BOX_ASR: "none", BOX_ASSET_DIR: assetDir }, { dataDir: boxData });
  portal = await createTestPortal({ assetStore: (urls) => new FileAssetStore(assetDir, urls) }, { ...db, dispose: () => undefined });
  cookie = await portal.signIn(OWNER);
}, 120_000);

afterAll(async () => {
  await box?.stop();
  db?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("erasure while the box runs", () => {
  it("a clip build running when the avatar is erased is discarded and archives nothing; later requests are 404", async () => {
    expect((await upload("ada.jpg", "neutral,happy")).status).toBe(200);
    await ready("ada");
    await until("the archived portrait", async () => (await archived("ada")).includes("portrait.png"));

    expect((await call("POST", "/api/avatar/clips/retry", { avatar: "ada", tone: "happy" })).status).toBe(202);
    const erased = await portal.app.request("/auth/avatars/ada", { method: "DELETE", headers: { cookie } });
    expect(erased.status).toBe(202);
    expect(((await erased.json()) as { erased: string[] }).erased).toContain("archived_media");
    // The order appeared while the build ran.
    expect((await clipRows("ada"))[0].state).toBe("generating");

    const row = await until("the build to end", async () => (await clipRows("ada")).find((r) => r.state !== "generating"));
    expect(row).toMatchObject({
      tone: "happy",
      state: "failed",
      detail: "The clip was discarded: the avatar was erased through the portal while it was being built.",
    });
    expect((await call("GET", "/api/avatar/clip?avatar=ada&tone=happy")).status).toBe(404);
    const again = await call("POST", "/api/avatar/clips/retry", { avatar: "ada", tone: "neutral" });
    expect([again.status, again.json.error.code]).toEqual([404, "unknown_avatar"]);
    // A discarded build hands nothing to archiving, so nothing can land later either.
    expect(await archived("ada")).toEqual([]);
    expect(box.stderr()).not.toMatch(/"msg":"avatar media archived"[^\n]*"what":"clip happy"/);
  }, 240_000);

  it("a new upload under the erased id before the next start is listed, and the next start keeps it", async () => {
    expect(await library()).toEqual([]);
    expect((await upload("ada.jpg", "neutral")).status).toBe(200);
    await ready("ada");
    const listed = await until("the new upload in the portal's library", async () =>
      (await library()).find((a) => a.avatar_id === "ada" && a.state === "ready"),
    );
    expect(listed).toMatchObject({ avatar_id: "ada", state: "ready" });
    // The order made from the old face's row is done: the new upload replaced every file of it.
    const orders = (await db.client.execute("SELECT done_at FROM avatar_erase_orders WHERE avatar_id = 'ada'")).rows;
    expect(orders.map((o) => o.done_at !== null)).toEqual([true]);
    await until("the new portrait archived", async () => (await archived("ada")).includes("portrait.png"));

    await box.stop();
    box = await spawnBox({ BOX_KEY_TABLE_URL: db.url, BOX_ASR: "none", BOX_ASSET_DIR: assetDir }, { dataDir: boxData });
    await ready("ada");
    expect((await library()).map((a) => a.avatar_id)).toEqual(["ada"]);
  }, 240_000);
});
