// The 100-key limit holds exactly when separate processes (each with its own database
// connection) race creates on the same libSQL file.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, createTestPortal, TEST_SECRET, type TestPortal } from "../testing/test-portal.ts";

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal({}, await createTestDb(false));
});
afterAll(() => portal.close());

const create = async (cookie: string, name: string) =>
  portal.app.request("/auth/keys", { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ name }) });
const list = async (cookie: string) => (await (await portal.app.request("/auth/keys", { headers: { cookie } })).json()).keys;

describe("the 100-key limit across processes", () => {
  it("holds exactly when separate processes race on the same database", async () => {
    const erin = await portal.signIn("erin@example.com");
    for (let i = 0; i < 90; i++) await create(erin, `k${i}`);
    const racers = Array.from({ length: 4 }, () =>
      spawn("node_modules/.bin/bun", ["portal/testing/race-creates.ts", portal.dbUrl, erin, "10", TEST_SECRET], {
        stdio: ["pipe", "pipe", "inherit"],
      }),
    );
    const outputs = racers.map((p) => {
      let out = "";
      const ready = new Promise<void>((resolve) => p.stdout.on("data", (d) => (out += d) && out.startsWith("ready\n") && resolve()));
      // "close", not "exit": it comes after the racer's stdout is read to its end.
      const done = new Promise<number[]>((resolve, reject) =>
        p.on("close", (code) => {
          try {
            if (code !== 0) throw new Error(`exit ${code}`);
            resolve(JSON.parse(out.slice("ready\n".length)));
          } catch (err) {
            reject(new Error(`racer failed (${(err as Error).message}): ${JSON.stringify(out)}`));
          }
        }),
      );
      return { ready, done };
    });
    // Every racer has its own connection open before any of them starts.
    await Promise.all(outputs.map((o) => o.ready));
    for (const p of racers) p.stdin.write("go\n");
    const statuses = (await Promise.all(outputs.map((o) => o.done))).flat();
    expect(statuses).toHaveLength(40);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    expect(await list(erin)).toHaveLength(100);
  });
});
