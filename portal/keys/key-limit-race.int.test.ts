// The 100-key limit holds exactly when separate processes (each with its own database
// connection) race creates on the same libSQL file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { racer } from "../testing/racer.ts";
import { createTestDb, createTestPortal, TEST_SECRET, type TestPortal } from "../testing/test-portal.ts";

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal({}, await createTestDb(false));
});
afterAll(() => portal.close());

const create = async (cookie: string, name: string) =>
  portal.app.request("/auth/keys", {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
const list = async (cookie: string) => (await (await portal.app.request("/auth/keys", { headers: { cookie } })).json()).keys;

describe("the 100-key limit across processes", () => {
  it("holds exactly when separate processes race on the same database", async () => {
    const erin = await portal.signIn("erin@example.com");
    for (let i = 0; i < 90; i++) await create(erin, `k${i}`);
    const racers = Array.from({ length: 4 }, () =>
      racer("node_modules/.bin/bun", ["portal/testing/race-creates.ts", portal.dbUrl, erin, "10", TEST_SECRET]),
    );
    // Every racer has its own connection open before any of them starts.
    await Promise.all(racers.map((r) => r.ready));
    for (const r of racers) r.go();
    const statuses = (await Promise.all(racers.map((r) => r.done))).flat();
    expect(statuses).toHaveLength(40);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    expect(await list(erin)).toHaveLength(100);
  });
});
