// One box per deployment when separate portal processes (a Bun one and a Deno one, each with its
// own database connection and EC2 client) launch at once on the same libSQL file, against one EC2
// (a local server speaking the EC2 Query API).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DENO_BIN, DENO_ENV, denoPortalArgs } from "../deno/command.ts";
import { FakeEc2Server } from "../testing/fake-ec2.ts";
import { gpuRequest, testEc2Driver } from "../testing/ec2-portal.ts";
import { racer } from "../testing/racer.ts";
import { createTestDb, createTestPortal, TEST_SECRET, type TestPortal } from "../testing/test-portal.ts";

let ec2: FakeEc2Server;
let portal: TestPortal;
beforeAll(async () => {
  ec2 = await FakeEc2Server.start();
  portal = await createTestPortal({ gpu: testEc2Driver(ec2), adminEmails: ["admin@example.com"] }, await createTestDb(false));
});
afterAll(async () => {
  await portal?.close();
  await ec2?.close();
});

describe("the launch lease across processes", () => {
  it("lets exactly one of two portal processes (Bun and Deno) launch, and both see that box", async () => {
    const admin = await portal.signIn("admin@example.com");
    const argv = [portal.dbUrl, admin, "3", TEST_SECRET, ec2.endpoint];
    const racers = [
      racer("node_modules/.bin/bun", ["portal/testing/race-launch.ts", ...argv], {}),
      racer(DENO_BIN, [...denoPortalArgs("local", "portal/testing/race-launch.ts"), ...argv], { ...DENO_ENV }),
    ];
    // Every racer has its own connection open before any of them starts.
    await Promise.all(racers.map((r) => r.ready));
    for (const r of racers) r.go();
    const statuses = (await Promise.all(racers.map((r) => r.done))).flat();
    expect(statuses.sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const live = [...ec2.instances.values()].filter((i) => i.state !== "terminated");
    expect(live).toHaveLength(1);
    expect(ec2.calls.filter((c) => c.action === "RunInstances")).toHaveLength(1);
    const status = await (await gpuRequest(portal.app, admin, "status")).json();
    expect(status.instances.map((i: { instance_id: string }) => i.instance_id)).toEqual([live[0].instanceId]);
    expect(status.gpu).toMatchObject({ instance_id: live[0].instanceId, can_launch: false });
  });
});
