// The studio's pages through the portal core (`app.request()`, no port): `GET /` leads to it,
// signed-out visits go to sign-in, pages are HTML with their security headers, every form field is
// labelled, and no page ever carries a key or a box credential. The bundle itself is built by Bun.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import type { StudioScript } from "./routes.ts";
import { SECRET_SHAPE, expectPage, unlabelled } from "./testing/page-checks.ts";

const SCRIPT: StudioScript = { code: "console.log('studio')", gzip: new Uint8Array([0x1f, 0x8b, 1, 2, 3]), etag: '"abc123"' };
const ROOT = resolve(import.meta.dirname, "../..");

let portal: TestPortal;
let ada: string;
let root: string;

beforeAll(async () => {
  portal = await createTestPortal({ studio: { script: async () => SCRIPT, outbox: "data/outbox" }, adminEmails: ["root@example.com"] });
  ada = await portal.signIn("ada@example.com");
  root = await portal.signIn("root@example.com");
});
afterAll(() => portal.close());

const get = (path: string, cookie?: string, headers: Record<string, string> = {}) =>
  portal.app.request(path, { headers: { ...(cookie ? { cookie } : {}), ...headers } });

describe("studio pages", () => {
  it("GET / leads to the studio", async () => {
    const res = await get("/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/studio");
  });

  it("sends a signed-out visitor to sign in, keeping where they were going", async () => {
    for (const [path, next] of [
      ["/studio", "%2Fstudio"],
      ["/studio/keys", "%2Fstudio%2Fkeys"],
    ]) {
      const res = await get(path);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/studio/sign-in?next=${next}`);
    }
    // A cookie that is no longer a session counts as signed out, not as an error.
    const stale = await get("/studio", "portal_session=" + "a".repeat(43) + "." + "b".repeat(43));
    expect(stale.status).toBe(303);
  });

  it("the sign-in page says where the link goes when there is no mail server", async () => {
    const res = await get("/studio/sign-in?next=/studio/keys");
    expectPage(res);
    const html = await res.text();
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).toContain('<form id="sign-in-form" class="card stack" data-next="/studio/keys">');
    expect(html).toContain("printed on the portal&#39;s console and written to the folder <code>data/outbox</code>");
    expect(html).toContain('<script type="module" src="/studio/app.js"></script>');
    expect(unlabelled(html)).toEqual([]);
    // `next` is only ever a same-origin path.
    expect(await (await get("/studio/sign-in?next=https://evil.example/")).text()).toContain('data-next="/studio"');
  });

  it("a used or expired link opened in a browser lands on the sign-in page saying so; API callers keep the JSON answer", async () => {
    const browser = await get("/auth/callback?token=" + "x".repeat(43), undefined, { accept: "text/html,application/xhtml+xml" });
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toBe("/studio/sign-in?link=invalid");
    const page = await (await get("/studio/sign-in?link=invalid")).text();
    expect(page).toContain('role="alert"');
    expect(page).toContain("That sign-in link does not work any more.");
    const api = await get("/auth/callback?token=" + "x".repeat(43));
    expect(api.status).toBe(400);
    expect((await api.json()).error.code).toBe("invalid_link");
  });

  it("the live page is the studio for a signed-in person, with the start button only for administrators", async () => {
    const res = await get("/studio", ada);
    expectPage(res);
    const html = await res.text();
    expect(html).toContain('data-page="live"');
    expect(html).toContain('data-admin="0"');
    expect(html).toContain('<video id="avatar-video" playsinline="" aria-label="The avatar, live"></video>');
    expect(html).toContain("ada@example.com");
    expect(html).toContain('aria-current="page"');
    expect(unlabelled(html)).toEqual([]);
    expect(await (await get("/studio", root)).text()).toContain('data-admin="1"');
  });

  it("no page carries an API key or a box credential, even right after both were made", async () => {
    const created = await portal.app.request("/auth/keys", {
      method: "POST",
      headers: { cookie: ada, "content-type": "application/json" },
      body: JSON.stringify({ name: "<script>alert(1)</script> backend" }),
    });
    const { key } = await created.json();
    const minted = await portal.app.request("/auth/session/credential", { method: "POST", headers: { cookie: ada } });
    const { credential } = await minted.json();
    for (const path of ["/studio", "/studio/keys", "/studio/keys/list", "/studio/sign-in", "/studio/nope"]) {
      const html = await (await get(path, ada)).text();
      expect(html, path).not.toContain(key.secret);
      expect(html, path).not.toContain(credential.secret);
      expect(html, path).not.toMatch(SECRET_SHAPE);
    }
    const keysPage = await (await get("/studio/keys", ada)).text();
    expect(keysPage).toContain(key.hint);
    // Names are text, never markup.
    expect(keysPage).toContain("&lt;script&gt;alert(1)&lt;/script&gt; backend");
    expect(keysPage).not.toContain("<script>alert(1)");
    expect(unlabelled(keysPage)).toEqual([]);
  });

  it("the key list shows active keys with a revoke button and folds revoked ones away", async () => {
    const make = async (name: string) =>
      (
        await (
          await portal.app.request("/auth/keys", {
            method: "POST",
            headers: { cookie: root, "content-type": "application/json" },
            body: JSON.stringify({ name }),
          })
        ).json()
      ).key;
    const keep = await make("keeper");
    const gone = await make("old laptop");
    await portal.app.request(`/auth/keys/${gone.id}`, { method: "DELETE", headers: { cookie: root } });
    const res = await get("/studio/keys/list", root);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("1 active, 1 revoked");
    expect(html).toContain(`data-key-id="${keep.id}"`);
    expect(html).toContain('aria-label="Revoke key keeper"');
    expect(html).toMatch(/<details class="revoked-keys"><summary>Revoked keys \(1\)<\/summary>.*old laptop/s);
    expect((await get("/studio/keys/list")).status).toBe(401);
  });

  it("serves the bundled script (gzip when accepted, 304 when unchanged) and the stylesheet", async () => {
    const plain = await get("/studio/app.js");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(plain.headers.get("etag")).toBe('"abc123"');
    expect(await plain.text()).toBe(SCRIPT.code);
    const gz = await get("/studio/app.js", undefined, { "accept-encoding": "gzip, br" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(new Uint8Array(await gz.arrayBuffer())).toEqual(SCRIPT.gzip);
    expect((await get("/studio/app.js", undefined, { "if-none-match": '"abc123"' })).status).toBe(304);

    const css = await get("/studio/studio.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).toContain(":focus-visible");
    expect((await get("/studio/studio.css", undefined, { "if-none-match": css.headers.get("etag")! })).status).toBe(304);
  });

  it("the live page (only) starts its box credential early: /studio/early.js, async in the head, asks the credential route and holds no secret", async () => {
    const live = await (await get("/studio", ada)).text();
    const head = live.slice(0, live.indexOf("</head>"));
    expect(head).toContain('<script async="" src="/studio/early.js"></script>');
    for (const path of ["/studio/keys", "/studio/library", "/studio/sign-in"])
      expect(await (await get(path, ada)).text(), path).not.toContain("early.js");
    const early = await get("/studio/early.js");
    expect(early.status).toBe(200);
    expect(early.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const js = await early.text();
    expect(js).toContain('fetch("/auth/session/credential", { method: "POST", credentials: "include"');
    expect(js).not.toMatch(SECRET_SHAPE);
    expect((await get("/studio/early.js", undefined, { "if-none-match": early.headers.get("etag")! })).status).toBe(304);
  });

  it("without a bundler (a runtime other than Bun) the script answers 503 saying why", async () => {
    const bare = await createTestPortal();
    const res = await bare.app.request("/studio/app.js");
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("run the portal with Bun");
    await bare.close();
  });

  it("an unknown studio page is an HTML 404 with a way back", async () => {
    const res = await get("/studio/nope", ada);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(await res.text()).toContain('<a href="/studio">Go to the live studio</a>');
  });
});

describe("the browser bundle", () => {
  it("Bun.build bundles the studio script for browsers, with nothing from Node or Bun in it", () => {
    const run = spawnSync(
      resolve(ROOT, "node_modules/.bin/bun"),
      [
        "-e",
        'const { buildStudioScript } = await import("./portal/studio/bun-bundle.ts"); const s = await buildStudioScript(); console.log(JSON.stringify({ bytes: s.code.length, gzip: s.gzip.length, node: /\\bfrom\\s*"(node|bun):/.test(s.code) || /require\\("(node|bun):/.test(s.code) }));',
      ],
      { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split("\n").pop()!);
    expect(out.node).toBe(false);
    expect(out.bytes).toBeGreaterThan(10_000);
    // Small enough for a phone on a slow link.
    expect(out.gzip).toBeLessThan(60_000);
  });
});
