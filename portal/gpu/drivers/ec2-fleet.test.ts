// One box per deployment across portal workers: two portal cores, each with its own connection
// to one database file and its own EC2 client, launching at once against one EC2 (a local server
// speaking the EC2 Query API); a launch whose answer was lost; every tagged instance reported.
import { createClient, type Client } from "@libsql/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPortalApp, type PortalApp } from "../../app.ts";
import { MemoryMailer } from "../../sign-in/mailer.ts";
import { FakeEc2Server } from "../../testing/fake-ec2.ts";
import { gpuRequest, noBoxLeft, testEc2Driver } from "../../testing/ec2-portal.ts";
import { createTestDb, signInThroughLink, TEST_SECRET } from "../../testing/test-portal.ts";
import type { Ec2GpuDriver } from "./ec2.ts";

let ec2: FakeEc2Server;
let db: Awaited<ReturnType<typeof createTestDb>>;
const workers: { app: PortalApp; client: Client; driver: Ec2GpuDriver }[] = [];
let admin: string;
let clock = Date.now();

beforeAll(async () => {
  ec2 = await FakeEc2Server.start();
  db = await createTestDb(false);
  for (let n = 0; n < 2; n++) {
    const client = n === 0 ? db.client : createClient({ url: db.url, timeout: 5000 });
    const driver = testEc2Driver(ec2);
    const mailer = new MemoryMailer();
    const app = createPortalApp({
      db: client,
      secret: TEST_SECRET,
      mailer,
      gpu: driver,
      adminEmails: ["admin@example.com"],
      gpuHourlyCostUsd: { "g5.xlarge": 1.006 },
      now: () => clock,
      log: () => {},
    });
    workers.push({ app, client, driver });
    // One sign-in: the session row is in the shared database, so the cookie works on both workers.
    if (n === 0) admin = await signInThroughLink(app, mailer, "admin@example.com");
  }
});
afterAll(async () => {
  for (const w of workers) await w.driver.close();
  workers[1]?.client.close();
  db.dispose();
  await ec2.close();
});
beforeEach(async () => {
  clock = Date.now();
  await noBoxLeft(ec2, db.client);
});

const live = () => [...ec2.instances.values()].filter((i) => i.state !== "terminated" && i.state !== "shutting-down");
const runs = () => ec2.calls.filter((c) => c.action === "RunInstances");

describe("one box per deployment across portal workers", () => {
  it("creates exactly one box when two workers launch at once (the rest are 409 gpu_already_running)", async () => {
    const answers = await Promise.all(workers.flatMap((w) => [0, 1, 2].map(() => gpuRequest(w.app, admin, "launch", {}))));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409)) expect((await r.json()).error.code).toBe("gpu_already_running");
    expect(live()).toHaveLength(1);
    expect(runs()).toHaveLength(1);
    // Both workers see the same box and agree that no launch is possible.
    for (const w of workers)
      expect((await (await gpuRequest(w.app, admin, "status")).json()).gpu).toMatchObject({
        instance_id: live()[0].instanceId,
        can_launch: false,
      });
  });

  it("retries a launch whose answer was lost with the lease's ClientToken, so no second box is made", async () => {
    ec2.eventual = true; // as on EC2, a new instance is not listed at once
    ec2.loseNextAnswer.add("RunInstances");
    const lost = await gpuRequest(workers[0].app, admin, "launch", {});
    expect(lost.status).toBe(502);
    expect((await lost.json()).error.code).toBe("gpu_unavailable");
    expect(live()).toHaveLength(1); // EC2 did make it

    // Nobody can launch something else meanwhile, and status says why in words.
    const other = await gpuRequest(workers[1].app, admin, "launch", { instance_type: "g6.xlarge" });
    expect(other.status).toBe(409);
    expect((await other.json()).error.code).toBe("gpu_already_running");
    const status = await (await gpuRequest(workers[1].app, admin, "status")).json();
    expect(status.notice).toMatch(/no answer/);

    // The same launch again, from the other worker: EC2 answers the instance the lost call made.
    const again = await gpuRequest(workers[1].app, admin, "launch", {});
    expect(again.status).toBe(201);
    expect((await again.json()).gpu.instance_id).toBe(live()[0].instanceId);
    expect(live()).toHaveLength(1);
    const tokens = runs().map((c) => c.params.get("ClientToken"));
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toBeTruthy();
    expect(tokens[1]).toBe(tokens[0]);
  });

  it("reports every instance carrying the deployment tag, and terminate ends them all", async () => {
    expect((await gpuRequest(workers[0].app, admin, "launch", {})).status).toBe(201);
    // A second box with the same tag (made before this fix, or by hand in the console).
    const first = live()[0];
    ec2.instances.set("i-0000000000000dup1", {
      ...first,
      instanceId: "i-0000000000000dup1",
      clientToken: null,
      launchTime: new Date(first.launchTime.getTime() - 60_000),
    });
    ec2.settle();

    const body = await (await gpuRequest(workers[1].app, admin, "status")).json();
    expect(body.instances.map((i: { instance_id: string }) => i.instance_id).sort()).toEqual(
      [first.instanceId, "i-0000000000000dup1"].sort(),
    );
    expect(body.instances).toContainEqual({
      instance_id: "i-0000000000000dup1",
      state: "running",
      region: "ap-southeast-2",
      instance_type: "g5.xlarge",
      launched_at: expect.any(Number),
    });
    expect(body.notice).toMatch(/2 boxes/);
    expect(body.gpu).toMatchObject({ state: "running", can_launch: false });

    const ended = await gpuRequest(workers[1].app, admin, "terminate");
    expect(ended.status).toBe(200);
    expect(live()).toEqual([]);
    expect(
      ec2.calls
        .filter((c) => c.action === "TerminateInstances")
        .map((c) => c.params.get("InstanceId.1"))
        .sort(),
    ).toEqual([first.instanceId, "i-0000000000000dup1"].sort());
  });

  it("holds the slot for a worker that died mid-launch until its lease expires", async () => {
    const now = Math.floor(clock / 1000);
    await db.client.execute({
      sql: "INSERT INTO gpu_launch_leases (deployment, token, holder, region, instance_type, outcome, instance_id, acquired_at, expires_at) VALUES ('ec2:test-deployment', 'gone', 'portal-gone', 'ap-southeast-2', 'g5.xlarge', 'launching', NULL, ?, ?)",
      args: [now, now + 120],
    });
    const status = await (await gpuRequest(workers[0].app, admin, "status")).json();
    expect(status.gpu).toMatchObject({ state: "none", can_launch: false });
    expect(status.notice).toMatch(/Another portal worker is launching a box/);
    const refused = await gpuRequest(workers[0].app, admin, "launch", {});
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe("gpu_already_running");
    expect(runs()).toEqual([]);

    clock += 121 * 1000;
    expect((await (await gpuRequest(workers[1].app, admin, "status")).json()).gpu.can_launch).toBe(true);
    expect((await gpuRequest(workers[1].app, admin, "launch", {})).status).toBe(201);
    expect(live()).toHaveLength(1);
  });
});
