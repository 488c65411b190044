// Integration: a box killed with SIGKILL while it builds a clip. The next start on the same volume
// finds no build behind the `generating` row: it answers `failed` with a sentence, the partial
// `clip-*.mp4.part-*` file is gone, and the clip can be requested again.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";

const KEY = "clip_restart_key";
const dataDir = mkdtempSync(join(tmpdir(), "clip-restart-"));
const boxes: RunningBox[] = [];

afterAll(async () => {
  for (const b of boxes) await b.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(box: RunningBox, method: string, path: string, body?: object) {
  const headers: Record<string, string> = { "x-api-key": KEY };
  if (body) headers["content-type"] = "application/json";
  const res = await fetch(box.url + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, json: (await res.json()) as any };
}

async function until<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 90_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const start = async () => {
  const b = await spawnBox({ BOX_API_KEYS: KEY, BOX_ASR: "none" }, { dataDir });
  boxes.push(b);
  return b;
};

describe("a clip build cut off by kill -9", () => {
  it("is failed with a sentence after the restart, its partial file is gone, and it can be built again", async () => {
    const first = await start();
    const stockId: string = (await call(first, "GET", "/api/avatars")).json.groups[0].id;
    const dir = join(dataDir, "clips", "stock", stockId);
    expect((await call(first, "POST", "/api/avatar/clips/retry", { avatar: stockId, tone: "happy" })).status).toBe(202);
    // Killed once ffmpeg has started writing the clip.
    await until("a partial clip file", () => existsSync(dir) && readdirSync(dir).some((f) => f.includes(".part-")));
    first.child.kill("SIGKILL");
    await until("the box to die", () => first.child.exitCode !== null || first.child.signalCode !== null);
    expect(JSON.parse(readFileSync(join(dir, "clips.json"), "utf8")).happy.state).toBe("generating");

    const second = await start();
    const { json } = await call(second, "GET", `/api/avatar/clips?avatar=${stockId}`);
    expect(json.clips).toEqual([
      {
        tone: "happy",
        state: "failed",
        variant_id: `${stockId}__happy`,
        duration_s: 0,
        updated_at: expect.any(Number),
        detail: "The build was cut off by a restart of the box; request the clip again.",
      },
    ]);
    expect(readdirSync(dir).filter((f) => f.startsWith("clip-"))).toEqual([]);
    expect((await call(second, "GET", `/api/avatar/clip?avatar=${stockId}&tone=happy`)).status).toBe(404);

    expect((await call(second, "POST", "/api/avatar/clips/retry", { avatar: stockId, tone: "happy" })).status).toBe(202);
    const row = await until("the rebuilt clip", async () => {
      const r = (await call(second, "GET", `/api/avatar/clips?avatar=${stockId}`)).json.clips[0];
      return r.state !== "generating" && r;
    });
    expect(row).toMatchObject({ state: "generated", detail: "" });
    expect(readdirSync(dir).filter((f) => f.startsWith("clip-"))).toEqual(["clip-happy.mp4"]);
  }, 240_000);
});
