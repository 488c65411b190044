// The real Bun entry (bun:sqlite library reads, bodies kept under `PRAGMA data_version`, the file
// store's remembered listings): what a box writes on its own connection or into the asset folder,
// a visibility flip and an erasure show on the very next request, and asset URLs are signed anew.
import { createClient, type Client } from "@libsql/client";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FolderSink } from "../../box/avatars/archive/sink.ts";
import { SharedRecords } from "../../box/avatars/own/shared-records.ts";
import { clipKey, portraitKey } from "../../shared/asset-layout/asset-keys.ts";
import { startPortalProcess, type PortalProcess } from "../testing/portal-process.ts";

const dir = mkdtempSync(join(tmpdir(), "portal-library-fresh-"));
const outbox = join(dir, "outbox");
let portal: PortalProcess;
let boxClient: Client;
let box: SharedRecords;
let cookie: string;
const ADA = "ada@example.com";

async function signIn(email: string): Promise<string> {
  const before = new Set(existsSync(outbox) ? readdirSync(outbox) : []);
  await fetch(`${portal.url}/auth/request-link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  const file = readdirSync(outbox).find((f) => !before.has(f))!;
  const link = /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(readFileSync(join(outbox, file), "utf8"))![1];
  return (await fetch(link, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0];
}

beforeAll(async () => {
  const dbUrl = pathToFileURL(join(dir, "portal.db")).href;
  portal = await startPortalProcess({ PORTAL_DB_URL: dbUrl, PORTAL_DATA_DIR: dir, PORTAL_MAIL_OUTBOX: outbox, PORTAL_GPU_DRIVER: "none" });
  boxClient = createClient({ url: dbUrl, timeout: 5000 });
  box = new SharedRecords(boxClient, true, false, { region: "eu-west-1", volume: "vol-box" });
  cookie = await signIn(ADA);
});
afterAll(async () => {
  boxClient?.close();
  await portal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(portal.url + path, {
    method,
    headers: { cookie, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
const library = async () => {
  const res = await call("GET", "/auth/avatars");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()).avatars as Record<string, any>[];
};
const one = async (id: string) => (await library()).find((a) => a.avatar_id === id);
const observe = (avatarId: string, extra: Partial<Parameters<SharedRecords["observe"]>[0]> = {}) =>
  box.observe({ subject: `owner:${ADA}`, avatarId, name: `${avatarId}.jpg`, sourceKind: "photo", state: "ready", ...extra });

describe("bun portal/main.ts: library reads are fresh on the very next request", () => {
  it("shows an observation a box writes on its own connection, and each later one", async () => {
    expect(await library()).toEqual([]);
    expect(await library()).toEqual([]); // kept now
    await observe("face-1", { state: "preparing" });
    expect(await one("face-1")).toMatchObject({
      state: "preparing",
      prepared_in_region: "eu-west-1",
      weights_volume: "vol-box",
      visibility: "private",
    });
    await observe("face-1", { detail: "ready now" });
    expect(await one("face-1")).toMatchObject({ state: "ready", detail: "ready now" });
  });

  it("shows visibility flips in the library and the public partition", async () => {
    const listedPublic = async () =>
      ((await (await call("GET", "/auth/avatars/public")).json()).avatars as { avatar_id: string }[]).some((a) => a.avatar_id === "face-1");
    expect((await call("POST", "/auth/avatars/face-1/publication-consent")).status).toBe(201);
    expect((await call("PUT", "/auth/avatars/face-1/visibility", { visibility: "public" })).status).toBe(200);
    expect((await one("face-1"))!.visibility).toBe("public");
    expect(await listedPublic()).toBe(true);
    expect((await call("PUT", "/auth/avatars/face-1/visibility", { visibility: "private" })).status).toBe(200);
    expect((await one("face-1"))!.visibility).toBe("private");
    expect(await listedPublic()).toBe(false);
  });

  it("lists what a box archives at once, signs the URLs for each request, and forgets an erased avatar", async () => {
    await observe("face-2");
    const sink = new FolderSink(join(dir, "assets"));
    const portrait = await portraitKey(ADA, "face-2");
    await sink.put(portrait, new Uint8Array([1, 2, 3]));
    // The folder as if written minutes ago: its listing is remembered from now on.
    const folder = join(dir, "assets", ...dirname(portrait).split("/"));
    const settle = () => utimesSync(folder, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    settle();
    const assets = async () => {
      const res = await call("GET", "/auth/avatars/face-2/assets");
      expect(res.status).toBe(200);
      return (await res.json()) as { assets: { filename: string; url: string }[]; expires_in: number };
    };
    const first = await assets();
    expect(first.assets.map((a) => a.filename)).toEqual(["portrait.png"]);
    expect((await assets()).assets.map((a) => a.filename)).toEqual(["portrait.png"]);
    const exp = Number(new URL(first.assets[0].url).searchParams.get("exp"));
    expect(Math.abs(exp - (Math.floor(Date.now() / 1000) + first.expires_in))).toBeLessThanOrEqual(2);
    expect((await fetch(first.assets[0].url)).status).toBe(200);

    await sink.put(await clipKey(ADA, "face-2", "happy"), new Uint8Array([4, 5]));
    expect((await assets()).assets.map((a) => a.filename)).toEqual(["portrait.png", "clip-happy.mp4"]);
    settle();
    await assets();

    expect(await one("face-2")).toBeDefined();
    expect((await call("DELETE", "/auth/avatars/face-2")).status).toBe(202);
    expect(await one("face-2")).toBeUndefined();
    expect((await call("GET", "/auth/avatars/face-2/assets")).status).toBe(404);
    expect(existsSync(folder)).toBe(false);
  });
});
