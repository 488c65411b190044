// The `ec2` GPU driver through the portal's `/auth/gpu/*` routes, against a local server that
// speaks the EC2 Query API (XML), not a stub of our own code.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestPortal, type TestPortal } from "../../testing/test-portal.ts";
import { FakeEc2Server } from "../../testing/fake-ec2.ts";
import { gpuRequest, noBoxLeft, testEc2Driver } from "../../testing/ec2-portal.ts";
import { DEPLOYMENT_TAG_KEY, type Ec2GpuDriver } from "./ec2.ts";

let ec2: FakeEc2Server;
let portal: TestPortal;
let driver: Ec2GpuDriver;
let admin: string;
let owner: string;
let stranger: string;
let clock = Date.now();

beforeAll(async () => {
  ec2 = await FakeEc2Server.start();
  driver = testEc2Driver(ec2);
  portal = await createTestPortal({
    gpu: driver,
    adminEmails: ["admin@example.com"],
    ownerEmails: ["owner@example.com"],
    gpuMaxRuntimeSeconds: 7200,
    gpuHourlyCostUsd: { "g5.xlarge": 1.006 },
    now: () => clock,
    resolveHostname: async (h) => (h.startsWith("ec2-203-0-113-") ? [h.slice(4).split(".")[0].replace(/-/g, ".")] : []),
  });
  admin = await portal.signIn("admin@example.com");
  owner = await portal.signIn("owner@example.com");
  stranger = await portal.signIn("someone@example.com");
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

const gpu = (cookie: string, verb: string, body?: unknown) => gpuRequest(portal.app, cookie, verb, body);
const actions = () => ec2.calls.map((c) => c.action).filter((a) => a !== "DescribeInstances");

describe("ec2 driver", () => {
  it("reports no box, the regions and the caller's tier", async () => {
    const res = await gpu(admin, "status");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.owner).toBe(false);
    expect(body.gpu).toMatchObject({
      instance_id: null,
      state: "none",
      can_launch: true,
      bootstrap_configured: true,
      max_runtime_seconds: 7200,
      over_budget: false,
    });
    expect(body.regions).toEqual([
      {
        id: "ap-southeast-2",
        label: "Sydney",
        data_resident: true,
        can_serve: true,
        smoke_test: false,
        types: ["g5.xlarge", "g6.xlarge"],
        owner_types: ["g6e.2xlarge"],
      },
      {
        id: "us-east-1",
        label: "N. Virginia",
        data_resident: false,
        can_serve: false,
        smoke_test: true,
        types: ["g5.xlarge"],
        owner_types: [],
      },
    ]);
    expect((await (await gpu(owner, "status")).json()).owner).toBe(true);
  });

  it("launches, runs, stops, starts and terminates one tagged instance", async () => {
    const launched = await gpu(admin, "launch", {});
    expect(launched.status).toBe(201);
    const lb = await launched.json();
    expect(lb.gpu).toMatchObject({ state: "pending", instance_type: "g5.xlarge", region: "ap-southeast-2", can_launch: false });
    const run = ec2.calls.find((c) => c.action === "RunInstances")!;
    expect(run.region).toBe("ap-southeast-2");
    expect(run.params.get("ImageId")).toBe("ami-0123456789abcdef0");
    expect(run.params.get("InstanceType")).toBe("g5.xlarge");
    expect(atob(run.params.get("UserData")!)).toBe("#!/bin/bash\necho box\n");
    expect(run.params.get("TagSpecification.1.Tag.1.Key")).toBe(DEPLOYMENT_TAG_KEY);

    ec2.settle();
    const running = (await (await gpu(admin, "status")).json()).gpu;
    expect(running).toMatchObject({
      instance_id: lb.gpu.instance_id,
      state: "running",
      availability_zone: "ap-southeast-2a",
      public_ip: expect.stringMatching(/^203\.0\.113\./),
      hostname: expect.stringMatching(/compute\.amazonaws\.com$/),
      hourly_cost_usd: 1.006,
      over_budget: false,
    });
    expect(running.auto_stop_at).toBe(running.launched_at + 7200);

    expect((await gpu(admin, "launch", {})).status).toBe(409);
    expect(actions().filter((a) => a === "RunInstances")).toHaveLength(1);
    const again = await gpu(admin, "start");
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("gpu_already_running");

    const stopped = await gpu(admin, "stop");
    expect(stopped.status).toBe(200);
    expect((await stopped.json()).gpu.state).toBe("stopping");
    ec2.settle();
    const started = await gpu(admin, "start");
    expect(started.status).toBe(200);
    expect((await started.json()).gpu.state).toBe("pending");

    const terminated = await gpu(admin, "terminate");
    expect(terminated.status).toBe(200);
    expect((await terminated.json()).gpu.state).toBe("shutting-down");
    ec2.settle();
    expect((await (await gpu(admin, "status")).json()).gpu).toMatchObject({ state: "none", can_launch: true });
    expect(actions()).toEqual(["RunInstances", "StopInstances", "StartInstances", "TerminateInstances"]);
  });

  it("maps EC2 refusals onto the GPU codes", async () => {
    const cases: [string, number, string][] = [
      ["InsufficientInstanceCapacity", 503, "gpu_no_capacity"],
      ["VcpuLimitExceeded", 503, "gpu_quota_exceeded"],
      ["UnauthorizedOperation", 502, "gpu_unavailable"],
    ];
    for (const [ec2Code, status, code] of cases) {
      ec2.failNext.set("RunInstances", { code: ec2Code, status: 400 });
      const res = await gpu(admin, "launch", { instance_type: "g6.xlarge" });
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: { code, message: expect.any(String) } });
    }
    expect([...ec2.instances.values()].filter((i) => i.state !== "terminated")).toHaveLength(0);
  });

  it("re-decides type and region server side", async () => {
    const refusals: [string, unknown, number, string][] = [
      ["stranger", {}, 409, "gpu_admin_only"],
      ["admin", { instance_type: "g6e.2xlarge" }, 403, "gpu_type_owner_only"],
      ["admin", { instance_type: "p5.48xlarge" }, 400, "gpu_type_not_allowed"],
      ["admin", { region: "eu-west-1" }, 409, "gpu_region_not_allowed"],
      ["admin", { region: "us-east-1" }, 409, "gpu_region_not_allowed"],
    ];
    for (const [who, body, status, code] of refusals) {
      const res = await gpu(who === "admin" ? admin : stranger, "launch", body);
      expect(res.status, code).toBe(status);
      expect((await res.json()).error.code).toBe(code);
    }
    expect(actions()).toEqual([]);
    const ok = await gpu(owner, "launch", { instance_type: "g6e.2xlarge", region: "ap-southeast-2" });
    expect(ok.status).toBe(201);
    expect((await ok.json()).gpu.instance_type).toBe("g6e.2xlarge");
  });

  it("stops a box that ran past its budget", async () => {
    await gpu(admin, "launch", {});
    ec2.settle();
    clock = Date.now() + 7201 * 1000;
    const res = await gpu(admin, "status");
    expect(res.status).toBe(200);
    expect((await res.json()).gpu.state).toBe("stopping");
    expect(actions()).toEqual(["RunInstances", "StopInstances"]);
  });

  it("answers diagnostics with status checks and what the hostname resolves to", async () => {
    await gpu(admin, "launch", {});
    ec2.settle();
    const res = await gpu(admin, "diagnostics");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.gpu.state).toBe("running");
    expect(body.diagnostics).toMatchObject({
      instance_status: "ok",
      system_status: "ok",
      hostname: body.gpu.hostname,
      resolves_to: [body.gpu.public_ip],
      resolves_to_public_ip: true,
    });
    expect(body.diagnostics.checks).toContainEqual({ name: "instance.reachability", status: "passed" });
  });

  it("refuses to start when there is no stopped box, and changes nothing on GET verbs", async () => {
    const res = await gpu(admin, "start");
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("gpu_not_startable");
    for (const verb of ["launch", "start", "stop", "terminate"]) {
      const get = await portal.app.request(`/auth/gpu/${verb}`, { headers: { cookie: admin } });
      expect(get.status).toBe(405);
      expect((await get.json()).error.code).toBe("method_not_allowed");
    }
    expect(actions()).toEqual([]);
  });
});
