// The API reference page (`GET /docs`): public HTML with the studio's security headers, every
// operation of the portal's document and of the running box's (a fake box on a loopback socket
// serving a document the box's own generator builds from real box route tables), the refusal
// codes and envelopes, no secret; the box's raw document forwarded at `GET /openapi.json`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../box/http/openapi.ts";
import { conversationRoutes } from "../../box/conversations/routes.ts";
import { settingsRoutes } from "../../box/settings/routes.ts";
import { systemRoutes } from "../../box/system/routes.ts";
import { tokenRoutes } from "../../box/tokens/routes.ts";
import { portalOpenApiDocument } from "../openapi/document.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { SECRET_SHAPE, expectPage } from "./testing/page-checks.ts";

// Route tables only: their handlers (the only users of these services) never run here.
const stub = {} as never;
const BOX_DOC = openApiDocument(
  [...systemRoutes(stub, stub, () => null), ...tokenRoutes(null), ...settingsRoutes(stub), ...conversationRoutes(stub)],
  [{ path: "/api/voice/ws", method: "get", summary: "Voice socket" }],
);

let box: Server;
let boxUrl: string;
let boxAnswers: "document" | "error" = "document";
let portal: TestPortal;
let noBox: TestPortal;
let ada: string;

beforeAll(async () => {
  box = createServer((req, res) => {
    if (req.url === "/openapi.json" && boxAnswers === "document") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(BOX_DOC));
    } else res.writeHead(500, { "content-type": "application/json" }).end('{"error":"boom"}');
  });
  await new Promise<void>((r) => box.listen(0, "127.0.0.1", r));
  boxUrl = `http://127.0.0.1:${(box.address() as AddressInfo).port}`;
  portal = await createTestPortal({ boxUrl });
  noBox = await createTestPortal();
  ada = await portal.signIn("ada@example.com");
});
afterAll(async () => {
  await portal.close();
  await noBox.close();
  await new Promise((r) => box.close(r));
});

const operations = (doc: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => [m.toUpperCase(), path] as const));
/** How the page writes a path in text (hono/jsx escapes nothing in `{id}` or `/`). */
const listed = (html: string, method: string, path: string) => html.includes(`>${method}</span> <code class="doc-path">${path}</code>`);

describe("the API reference page", () => {
  it("is public HTML with the studio's security headers, no script of its own and nothing from another origin", async () => {
    const res = await portal.app.request("/docs");
    expectPage(res);
    const html = await res.text();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script(?![^>]*src="\/studio\/app\.js")/);
    expect(html).not.toMatch(/\sstyle=|<style/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain('<a href="/docs/portal.openapi.json">');
    expect(html).toContain('<a href="/openapi.json">');
  });

  it("lists every operation of the portal's and the box's documents, grouped by area", async () => {
    const html = await (await portal.app.request("/docs")).text();
    const missing = [...operations(portalOpenApiDocument()), ...operations(BOX_DOC)].filter(([m, p]) => !listed(html, m, p));
    expect(missing).toEqual([]);
    for (const group of [
      "Sign-in",
      "API keys",
      "Avatars",
      "Consent",
      "Portraits",
      "Voice keys",
      "GPU",
      "System",
      "Tokens",
      "Settings",
      "Conversations",
      "Voices and audio",
    ]) {
      expect(html, group).toContain(`<h3>${group}</h3>`);
    }
  });

  it("spells out bodies, answers, refusal codes and the error envelopes", async () => {
    const html = await (await portal.app.request("/docs")).text();
    // POST /auth/keys: the body field, the created key's fields (the secret among them), its refusals.
    const keys = html.slice(
      html.indexOf('id="portal-post-auth-keys"'),
      html.indexOf("</details>", html.indexOf('id="portal-post-auth-keys"')),
    );
    expect(keys).toContain("<code>name</code>");
    expect(keys).toContain("<code>key.secret</code>");
    expect(keys).toContain('<code class="doc-code">key_limit_reached</code>');
    expect(keys).toContain('<code class="doc-code">missing_api_key</code>');
    expect(html).toContain("<code>voice.keys[].validated</code>");
    expect(html).toContain("Error envelopes");
  });

  it("carries no secret, whoever reads it", async () => {
    const created = await portal.app.request("/auth/keys", {
      method: "POST",
      headers: { cookie: ada, "content-type": "application/json" },
      body: '{"name":"k"}',
    });
    const secret = ((await created.json()) as { key: { secret: string } }).key.secret;
    for (const cookie of [undefined, ada]) {
      const html = await (await portal.app.request("/docs", { headers: cookie ? { cookie } : {} })).text();
      expect(html).not.toMatch(SECRET_SHAPE);
      expect(html).not.toContain(secret);
    }
  });

  it("shows the studio's navigation to a signed-in person, with API as the current page", async () => {
    const html = await (await portal.app.request("/docs", { headers: { cookie: ada } })).text();
    expect(html).toContain('<a href="/docs" aria-current="page">API</a>');
    const studio = await (await portal.app.request("/studio/keys", { headers: { cookie: ada } })).text();
    expect(studio).toContain('<a href="/docs">API</a>');
  });

  it("still answers, naming why, when no box runs or the box's document cannot be read", async () => {
    const res = await noBox.app.request("/docs");
    expectPage(res);
    const html = await res.text();
    expect(html).toContain("No box is running");
    expect(listed(html, "GET", "/auth/keys")).toBe(true);
    boxAnswers = "error";
    try {
      // A fresh portal: the first one keeps the box's document for a minute.
      const other = await createTestPortal({ boxUrl });
      const broken = await (await other.app.request("/docs")).text();
      await other.close();
      expect(broken).toContain("The box answered 500 to GET /openapi.json.");
      expect(listed(broken, "GET", "/auth/keys")).toBe(true);
    } finally {
      boxAnswers = "document";
    }
  });
});

describe("the raw documents", () => {
  it("GET /openapi.json on the portal is the running box's document", async () => {
    const res = await portal.app.request("/openapi.json");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(BOX_DOC)));
    const none = await noBox.app.request("/openapi.json");
    expect(none.status).toBe(503);
    expect(await none.json()).toEqual({ error: { code: "box_not_running", message: expect.any(String) } });
  });
});
