// The GPU page through the portal core (`app.request()`, no port): signed-out visits go to
// sign-in; an administrator gets the controls and the terminate dialog (keeping the box is the
// default), a person who is not one gets a sentence saying whom to ask and no controls (and the
// routes answer them 409 `gpu_admin_only`, which the script also handles); with no driver the
// record is what the page reads as "cannot start a box"; every GPU refusal comes out in words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AvatarApiError } from "../../shared/client/index.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { gpuWords, NO_DRIVER } from "./browser/gpu-words.ts";
import { SECRET_SHAPE, unlabelled } from "./testing/page-checks.ts";

let portal: TestPortal;
let root: string;
let ada: string;

beforeAll(async () => {
  // No `gpu` driver given: the portal's default, `none`.
  portal = await createTestPortal({ adminEmails: ["root@example.com"] });
  root = await portal.signIn("root@example.com");
  ada = await portal.signIn("ada@example.com");
});
afterAll(() => portal.close());

const get = (path: string, cookie?: string) => portal.app.request(path, { headers: cookie ? { cookie } : {} });

describe("the GPU page", () => {
  it("sends a signed-out visitor to sign in, coming back here", async () => {
    const res = await get("/studio/gpu");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/studio/sign-in?next=%2Fstudio%2Fgpu");
  });

  it("gives an administrator the controls, labelled, with a terminate dialog that keeps the box by default, and no secret", async () => {
    const { credential } = await (
      await portal.app.request("/auth/session/credential", { method: "POST", headers: { cookie: root } })
    ).json();
    const res = await get("/studio/gpu", root);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'; script-src 'self' blob:;.*frame-ancestors 'none'/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).toContain('data-page="gpu"');
    expect(html).toContain('data-admin="1"');
    expect(html).toContain('<a href="/studio/gpu" aria-current="page">GPU</a>');
    for (const id of ["gpu-state", "gpu-launch", "gpu-start", "gpu-stop", "gpu-terminate", "box-readiness", "gpu-diagnostics"])
      expect(html).toContain(`id="${id}"`);
    expect(html).toMatch(/<details id="gpu-diagnostics"[^>]*><summary>Diagnostics<\/summary>/);
    expect(html).toMatch(
      /<dialog id="terminate-dialog"[^>]*>.*Terminate the box\?.*<button value="cancel" type="submit" autofocus="">Keep the box<\/button>/s,
    );
    // The not-for-you sentence is there for the script to show, hidden.
    expect(html).toMatch(/<section id="not-admin"[^>]*hidden=""/);
    expect(unlabelled(html)).toEqual([]);
    expect(html).not.toContain(credential.secret);
    expect(html).not.toMatch(SECRET_SHAPE);
    expect(html).not.toMatch(/style="/);
  });

  it("tells a person who is not an administrator whom to ask, with no controls; the routes refuse them 409 gpu_admin_only", async () => {
    const res = await get("/studio/gpu", ada);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-admin="0"');
    expect(html).toMatch(/<section id="not-admin" class="card" aria-labelledby="not-admin-h">/);
    expect(html).toContain("This page is for administrators");
    expect(html).toContain("PORTAL_ADMIN_EMAILS");
    for (const id of ["gpu-admin", "gpu-start", "gpu-stop", "gpu-terminate", "terminate-dialog"]) expect(html).not.toContain(`id="${id}"`);
    expect(html).not.toContain('href="/studio/gpu"');

    for (const [method, path] of [
      ["GET", "/auth/gpu/status"],
      ["POST", "/auth/gpu/stop"],
      ["POST", "/auth/gpu/terminate"],
    ]) {
      const refused = await portal.app.request(path, { method, headers: { cookie: ada } });
      expect(refused.status, path).toBe(409);
      expect((await refused.json()).error.code, path).toBe("gpu_admin_only");
    }
  });

  it("with no driver: the record the page reads as 'cannot start a box', and the verbs refused with the same words", async () => {
    const res = await portal.app.request("/auth/gpu/status", { headers: { cookie: root } });
    expect(res.status).toBe(200);
    const { gpu, regions } = await res.json();
    expect({ state: gpu.state, can_launch: gpu.can_launch, regions }).toEqual({ state: "none", can_launch: false, regions: [] });
    const start = await portal.app.request("/auth/gpu/start", { method: "POST", headers: { cookie: root } });
    expect(start.status).toBe(503);
    const words = gpuWords(AvatarApiError.fromBody(503, await start.json()));
    expect(words).toBe(NO_DRIVER);
    expect(words).toContain("PORTAL_GPU_DRIVER=local");
  });

  it("says every GPU refusal of the spec's table in words, with what to do", () => {
    const codes: [number, string][] = [
      [409, "gpu_already_running"],
      [409, "gpu_not_startable"],
      [409, "gpu_region_not_allowed"],
      [403, "gpu_type_owner_only"],
      [400, "gpu_type_not_allowed"],
      [503, "gpu_no_capacity"],
      [503, "gpu_quota_exceeded"],
      [503, "gpu_launch_not_configured"],
      [502, "gpu_unavailable"],
    ];
    for (const [status, code] of codes) {
      const text = gpuWords(new AvatarApiError(status, code, "What the portal said"));
      expect(text, code).toMatch(/[.!?]$/);
      expect(text!.length, code).toBeGreaterThan(40);
    }
    expect(gpuWords(new AvatarApiError(503, "gpu_no_capacity", "No g5.xlarge in ap-southeast-2"))).toBe(
      "The provider has no free machine of that type there right now: No g5.xlarge in ap-southeast-2. Try again in a few minutes, or pick another type or region.",
    );
    expect(gpuWords(new AvatarApiError(503, "box_not_running", "No box."))).toBeNull();
  });
});
