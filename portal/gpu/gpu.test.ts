// `/auth/gpu/*` gates: administrators only (409, never 403), and the `none` driver (status answers
// with can_launch false; lifecycle verbs are 503 gpu_launch_not_configured).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";

let portal: TestPortal;
let admin: string;
let person: string;

beforeAll(async () => {
  portal = await createTestPortal({ adminEmails: ["Admin@Example.com"] });
  admin = await portal.signIn("admin@example.com");
  person = await portal.signIn("person@example.com");
});
afterAll(() => portal.close());

const call = async (cookie: string, method: string, verb: string) =>
  portal.app.request(`/auth/gpu/${verb}`, { method, headers: { cookie } });

describe("GPU routes with no driver configured", () => {
  it("answers status 200 with can_launch false", async () => {
    const res = await call(admin, "GET", "status");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      gpu: {
        instance_id: null,
        state: "none",
        instance_type: null,
        region: null,
        availability_zone: null,
        public_ip: null,
        hostname: null,
        launched_at: null,
        running_seconds: 0,
        max_runtime_seconds: 7200,
        auto_stop_at: null,
        over_budget: false,
        hourly_cost_usd: 0,
        ephemeral: false,
        can_launch: false,
        bootstrap_configured: false,
      },
      owner: false,
      regions: [],
      instances: [],
      notice: "",
    });
    const diag = await call(admin, "GET", "diagnostics");
    expect(diag.status).toBe(200);
    expect((await diag.json()).diagnostics).toMatchObject({ instance_status: null, resolves_to: null });
  });

  for (const verb of ["start", "stop", "launch", "terminate"]) {
    it(`answers POST ${verb} with 503 gpu_launch_not_configured`, async () => {
      const res = await call(admin, "POST", verb);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: { code: "gpu_launch_not_configured", message: expect.any(String) } });
    });
  }

  it("keeps non-administrators out with 409 gpu_admin_only (never 403)", async () => {
    for (const [method, verb] of [
      ["GET", "status"],
      ["GET", "diagnostics"],
      ["POST", "start"],
      ["POST", "stop"],
      ["POST", "launch"],
      ["POST", "terminate"],
    ]) {
      const res = await call(person, method, verb);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: { code: "gpu_admin_only", message: expect.any(String) } });
    }
  });

  it("answers the verbs sent as GET with 405 (nested envelope)", async () => {
    for (const verb of ["start", "stop", "launch", "terminate"]) {
      const res = await call(admin, "GET", verb);
      expect(res.status).toBe(405);
      expect((await res.json()).error.code).toBe("method_not_allowed");
    }
    expect((await call(admin, "POST", "status")).status).toBe(405);
  });

  it("refuses a launch body that is not JSON", async () => {
    const res = await portal.app.request("/auth/gpu/launch", { method: "POST", headers: { cookie: admin }, body: "{nope" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("invalid_body");
  });
});
