// The `local` GPU driver through `/auth/gpu/*`: launches a real box process, the portal forwards box
// paths to it, stop really ends the process, start brings it back, terminate forgets it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, createTestPortal, type TestPortal } from "../../testing/test-portal.ts";
import { LocalGpuDriver } from "./local.ts";

let portal: TestPortal;
let driver: LocalGpuDriver;
let admin: string;
const boxDir = mkdtempSync(join(tmpdir(), "portal-local-gpu-"));

beforeAll(async () => {
  const db = await createTestDb(false);
  driver = new LocalGpuDriver({ baseEnv: process.env, boxEnv: { BOX_DATA_DIR: boxDir, BOX_KEY_TABLE_URL: db.url } });
  portal = await createTestPortal({ gpu: driver, adminEmails: ["admin@example.com"] }, db);
  admin = await portal.signIn("admin@example.com");
});
afterAll(async () => {
  await driver.close();
  await portal.close();
  rmSync(boxDir, { recursive: true, force: true });
});

const verb = async (name: string) =>
  portal.app.request(`/auth/gpu/${name}`, { method: name === "status" ? "GET" : "POST", headers: { cookie: admin } });

async function reachable(url: string): Promise<boolean> {
  try {
    await fetch(new URL("/health", url), { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

describe("local driver", () => {
  it("launches a box, forwards to it, stops it, starts it again and terminates it", async () => {
    const before = await (await verb("status")).json();
    expect(before.gpu).toMatchObject({ state: "none", can_launch: true, bootstrap_configured: true });
    expect(before.regions).toEqual([
      { id: "local", label: "This machine", data_resident: true, can_serve: true, smoke_test: false, types: ["local"], owner_types: [] },
    ]);
    expect((await portal.app.request("/health")).status).toBe(503);

    const launched = await verb("launch");
    expect(launched.status).toBe(201);
    const { gpu } = await launched.json();
    expect(gpu).toMatchObject({ state: "running", instance_type: "local", region: "local", can_launch: false, max_runtime_seconds: 7200 });
    const firstUrl = driver.boxUrl()!;
    expect(await reachable(firstUrl)).toBe(true);

    // One host: the box's public health answers through the portal.
    const health = await portal.app.request("/health");
    expect(health.status).toBe(200);
    expect((await health.json()).status).toBe("ok");
    // And a portal-made key reaches a credentialed box route through the portal.
    const { key } = await (
      await portal.app.request("/auth/keys", {
        method: "POST",
        headers: { cookie: admin, "content-type": "application/json" },
        body: JSON.stringify({ name: "k" }),
      })
    ).json();
    expect((await portal.app.request("/api/chat/status", { headers: { "x-api-key": key.secret } })).status).toBe(200);
    expect((await portal.app.request("/api/chat/status")).status).toBe(401);

    const stopped = await verb("stop");
    expect(stopped.status).toBe(200);
    expect((await stopped.json()).gpu.state).toBe("stopped");
    expect(await reachable(firstUrl)).toBe(false);
    const none = await portal.app.request("/health");
    expect(none.status).toBe(503);
    expect((await none.json()).error.code).toBe("box_not_running");

    const started = await verb("start");
    expect(started.status).toBe(200);
    expect((await started.json()).gpu).toMatchObject({ state: "running", instance_id: gpu.instance_id });
    expect(await reachable(driver.boxUrl()!)).toBe(true);

    const terminated = await verb("terminate");
    expect(terminated.status).toBe(200);
    expect((await terminated.json()).gpu.state).toBe("terminated");
    expect((await (await verb("status")).json()).gpu).toMatchObject({ state: "none", can_launch: true });
    expect(driver.boxUrl()).toBeNull();
  });
});
