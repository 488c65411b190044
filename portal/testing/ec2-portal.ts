// The `ec2` GPU driver as the ec2 tests configure it (two regions, one that can serve), against a
// FakeEc2Server, and the `/auth/gpu/*` call they all make.
import type { GpuRegion } from "../gpu/drivers/driver.ts";
import { Ec2GpuDriver, type Ec2DriverOptions } from "../gpu/drivers/ec2.ts";
import type { FakeEc2Server } from "./fake-ec2.ts";

export const TEST_GPU_REGIONS: GpuRegion[] = [
  {
    id: "ap-southeast-2",
    label: "Sydney",
    dataResident: true,
    canServe: true,
    smokeTest: false,
    types: ["g5.xlarge", "g6.xlarge"],
    ownerTypes: ["g6e.2xlarge"],
  },
  { id: "us-east-1", label: "N. Virginia", dataResident: false, canServe: false, smokeTest: true, types: ["g5.xlarge"], ownerTypes: [] },
];

export function testEc2Driver(ec2: Pick<FakeEc2Server, "endpoint">, overrides: Partial<Ec2DriverOptions> = {}): Ec2GpuDriver {
  return new Ec2GpuDriver({
    regions: TEST_GPU_REGIONS,
    imageIds: { "ap-southeast-2": "ami-0123456789abcdef0", "us-east-1": "ami-0fedcba9876543210" },
    deploymentTag: "test-deployment",
    userData: "#!/bin/bash\necho box\n",
    endpoint: ec2.endpoint,
    credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
    maxAttempts: 1,
    ...overrides,
  });
}

/**
 * Each test starts with no box: every instance ended behind the portal's back, so no launch lease
 * is left either, and the fake's call log, refusals and listing delay are cleared.
 */
export async function noBoxLeft(ec2: FakeEc2Server, db: { execute(sql: string): Promise<unknown> }): Promise<void> {
  for (const i of ec2.instances.values()) i.state = "terminated";
  await db.execute("DELETE FROM gpu_launch_leases");
  ec2.calls.length = 0;
  ec2.refuseRegion.clear();
  ec2.eventual = false;
}

/** One `/auth/gpu/{verb}` request: GET for status and diagnostics, POST for the lifecycle verbs. */
export function gpuRequest(
  app: { request(path: string, init?: RequestInit): Response | Promise<Response> },
  cookie: string,
  verb: string,
  body?: unknown,
) {
  return app.request(`/auth/gpu/${verb}`, {
    method: verb === "status" || verb === "diagnostics" ? "GET" : "POST",
    headers: { cookie, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
