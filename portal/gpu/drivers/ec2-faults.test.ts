// The `ec2` driver when EC2 refuses part of the work (against a local server speaking the EC2 Query
// API): a region that refuses every call, a refused automatic stop, and a record whose can_launch
// and cost agree with what the portal does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeEc2Server } from "../../testing/fake-ec2.ts";
import { gpuRequest, noBoxLeft, testEc2Driver } from "../../testing/ec2-portal.ts";
import { createTestPortal, type TestPortal } from "../../testing/test-portal.ts";
import type { Ec2GpuDriver } from "./ec2.ts";

let ec2: FakeEc2Server;
let portal: TestPortal;
let driver: Ec2GpuDriver;
let admin: string;
let clock = Date.now();

beforeAll(async () => {
  ec2 = await FakeEc2Server.start();
  driver = testEc2Driver(ec2);
  portal = await createTestPortal({
    gpu: driver,
    adminEmails: ["admin@example.com"],
    gpuMaxRuntimeSeconds: 7200,
    gpuHourlyCostUsd: { "g5.xlarge": 1.006 },
    now: () => clock,
  });
  admin = await portal.signIn("admin@example.com");
});
afterAll(async () => {
  await driver.close();
  await portal.close();
  await ec2.close();
});
beforeEach(async () => {
  clock = Date.now();
  await noBoxLeft(ec2, portal.client);
});

const gpu = (verb: string, body?: unknown) =>
  gpuRequest(portal.app, admin, verb, verb === "status" || verb === "diagnostics" ? undefined : (body ?? {}));
const UNAUTHORIZED = { code: "UnauthorizedOperation", status: 403 };

describe("a region that refuses every call", () => {
  it("does not stop the verbs in the region that holds the box", async () => {
    ec2.refuseRegion.set("us-east-1", UNAUTHORIZED);
    const launched = await gpu("launch");
    expect(launched.status).toBe(201);
    ec2.settle();
    const status = await gpu("status");
    expect(status.status).toBe(200);
    const body = await status.json();
    expect(body.gpu).toMatchObject({ state: "running", region: "ap-southeast-2" });
    expect(body.notice).toMatch(/us-east-1.*UnauthorizedOperation/);
    expect((await gpu("diagnostics")).status).toBe(200);
    expect((await (await gpu("stop")).json()).gpu.state).toBe("stopping");
    ec2.settle();
    expect((await (await gpu("start")).json()).gpu.state).toBe("pending");
    const ended = await gpu("terminate");
    expect(ended.status).toBe(200);
    expect((await ended.json()).gpu.state).toBe("shutting-down");
  });

  it("answers status when the region that can serve refuses, but launches nothing it could not check", async () => {
    ec2.refuseRegion.set("ap-southeast-2", UNAUTHORIZED);
    const status = await gpu("status");
    expect(status.status).toBe(200);
    const body = await status.json();
    expect(body.gpu).toMatchObject({ state: "none", can_launch: false });
    expect(body.notice).toMatch(/ap-southeast-2/);
    const launch = await gpu("launch");
    expect(launch.status).toBe(502);
    expect((await launch.json()).error.code).toBe("gpu_unavailable");
    expect(ec2.calls.filter((c) => c.action === "RunInstances")).toEqual([]);
  });

  it("answers 502 gpu_unavailable when no region answers", async () => {
    ec2.refuseRegion.set("ap-southeast-2", UNAUTHORIZED);
    ec2.refuseRegion.set("us-east-1", UNAUTHORIZED);
    const status = await gpu("status");
    expect(status.status).toBe(502);
    expect(await status.json()).toEqual({ error: { code: "gpu_unavailable", message: expect.stringMatching(/UnauthorizedOperation/) } });
  });
});

describe("an automatic stop that EC2 refuses", () => {
  it("reports the running box and the failed stop in words; terminate still works", async () => {
    await gpu("launch");
    ec2.settle();
    const [box] = [...ec2.instances.values()].filter((i) => i.state === "running");
    box.disableApiStop = true; // stop protection turned on in the console
    clock = Date.now() + 7201 * 1000;
    const status = await gpu("status");
    expect(status.status).toBe(200);
    const body = await status.json();
    expect(body.gpu).toMatchObject({ state: "running", over_budget: true, hourly_cost_usd: 1.006 });
    expect(body.notice).toMatch(/refused to stop/);
    expect(body.notice).toMatch(/OperationNotPermitted/);
    const diagnostics = await gpu("diagnostics");
    expect(diagnostics.status).toBe(200);
    expect((await diagnostics.json()).notice).toMatch(/OperationNotPermitted/);
    const ended = await gpu("terminate");
    expect(ended.status).toBe(200);
    expect((await ended.json()).gpu.state).toBe("shutting-down");
    expect(box.state).toBe("shutting-down");
  });
});

describe("the record agrees with the launch rule", () => {
  it("offers can_launch exactly when a launch is accepted, in every state", async () => {
    for (const state of ["pending", "running", "stopping", "stopped", "shutting-down"]) {
      for (const i of ec2.instances.values()) i.state = "terminated";
      await portal.client.execute("DELETE FROM gpu_launch_leases");
      expect((await gpu("launch")).status).toBe(201);
      const box = [...ec2.instances.values()].find((i) => i.state === "pending")!;
      box.state = state;
      const canLaunch = (await (await gpu("status")).json()).gpu.can_launch;
      const launch = await gpu("launch");
      expect({ state, status: launch.status }).toEqual({ state, status: canLaunch ? 201 : 409 });
    }
  });

  it("lets a launch follow terminate, as the terminate answer says", async () => {
    await gpu("launch");
    ec2.settle();
    const ended = await (await gpu("terminate")).json();
    expect(ended.gpu).toMatchObject({ state: "shutting-down", can_launch: true });
    const next = await gpu("launch");
    expect(next.status).toBe(201);
    const body = await next.json();
    expect(body.gpu).toMatchObject({ state: "pending", can_launch: false });
    expect(body.instances.map((i: { state: string }) => i.state).sort()).toEqual(["pending", "shutting-down"]);
  });

  it("costs nothing per hour while stopped", async () => {
    await gpu("launch");
    ec2.settle();
    expect((await (await gpu("status")).json()).gpu.hourly_cost_usd).toBe(1.006);
    await gpu("stop");
    ec2.settle();
    const stopped = (await (await gpu("status")).json()).gpu;
    expect(stopped).toMatchObject({ state: "stopped", hourly_cost_usd: 0 });
  });
});
