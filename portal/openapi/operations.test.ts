// The portal's OpenAPI route table cannot drift from the app: every operation the app registers
// (a concrete method, not a 405 or a 404 catch-all, not a studio HTML page) is in the table, and
// every table entry is registered. The last two cases prove the check fails when it should.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { methodNotAllowed } from "../http/errors.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { PORTAL_OPERATIONS, type PortalOperation } from "./operations.ts";

interface Registered {
  method: string;
  path: string;
  handler: unknown;
}

/** Catch-alls that answer a missing resource for ids with slashes: not operations of their own. */
const NOT_OPERATIONS = new Set(["PUT /auth/avatars/*", "POST /auth/avatars/*", "DELETE /auth/avatars/*", "PATCH /auth/avatars/*"]);

/** The studio's HTML pages, its stylesheet and scripts, and the reference page: not JSON routes. */
const isPage = (path: string) => path === "/" || path === "/docs" || path === "/studio" || path.startsWith("/studio/");

/** Both directions of disagreement between the registered routes and the table. */
function drift(routes: readonly Registered[], table: readonly PortalOperation[]) {
  const key = (method: string, path: string) => `${method} ${path}`;
  const registered = new Set<string>();
  for (const r of routes) {
    if (r.method === "ALL" || r.handler === methodNotAllowed || isPage(r.path)) continue;
    const k = key(r.method, r.path);
    if (!NOT_OPERATIONS.has(k)) registered.add(k);
  }
  const declared = new Set(table.map((op) => key(op.method, op.route)));
  return {
    undocumented: [...registered].filter((k) => !declared.has(k)).sort(),
    unregistered: [...declared].filter((k) => !registered.has(k)).sort(),
  };
}

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal.close());

describe("the portal's OpenAPI route table", () => {
  it("names exactly the operations the app registers", () => {
    expect(drift(portal.app.routes, PORTAL_OPERATIONS)).toEqual({ undocumented: [], unregistered: [] });
  });

  it("declares each operation once", () => {
    const keys = PORTAL_OPERATIONS.map((op) => `${op.method} ${op.route}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it("covers every /auth/* path of the app (405 answers aside, each has an operation)", () => {
    const paths = new Set(PORTAL_OPERATIONS.map((op) => op.route));
    const withOnly405 = portal.app.routes.filter(
      (r) => r.path.startsWith("/auth/") && r.handler === methodNotAllowed && !paths.has(r.path),
    );
    // `/auth/portraits/:id` is the 405 for a bare id's other methods, beside `GET /auth/portraits/:id{.+}`.
    expect(withOnly405.map((r) => `${r.method} ${r.path}`)).toEqual(["ALL /auth/portraits/:id"]);
  });

  it("reports a route the table lacks", () => {
    const added = [...portal.app.routes, { method: "GET", path: "/auth/new-thing", handler: () => null }];
    expect(drift(added, PORTAL_OPERATIONS).undocumented).toEqual(["GET /auth/new-thing"]);
  });

  it("reports a table entry the app does not register", () => {
    const extra: PortalOperation = {
      method: "POST",
      route: "/auth/keys/:id/rename",
      tag: "API keys",
      summary: "x",
      auth: "session",
      responses: {},
    };
    expect(drift(portal.app.routes, [...PORTAL_OPERATIONS, extra]).unregistered).toEqual(["POST /auth/keys/:id/rename"]);
    const wrongMethod = PORTAL_OPERATIONS.map((op) => (op.route === "/auth/logout" ? { ...op, method: "GET" as const } : op));
    expect(drift(portal.app.routes, wrongMethod)).toEqual({ undocumented: ["POST /auth/logout"], unregistered: ["GET /auth/logout"] });
  });
});
