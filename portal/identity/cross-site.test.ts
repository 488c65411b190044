// `/auth/*` answers and cross-site changes: every answer (errors included) is `no-store` and
// `nosniff`; a change carried by the session cookie from another origin is refused 409
// `cross_site_request` whether or not the browser sent Fetch Metadata, while the portal's own pages
// (also behind a proxy) and callers that send no Origin (not browsers) work as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";

let portal: TestPortal;
let ada: string;

beforeAll(async () => {
  // Behind a proxy: the browser's origin is the public URL, the portal hears its own address.
  portal = await createTestPortal({ publicUrl: "https://portal.example.com" });
  ada = await portal.signIn("ada@example.com");
});
afterAll(() => portal.close());

const json = { "content-type": "application/json" };
const createKey = (name: string, headers: Record<string, string> = {}, url = "http://127.0.0.1:8787/auth/keys") =>
  portal.app.request(url, { method: "POST", headers: { cookie: ada, ...json, ...headers }, body: JSON.stringify({ name }) });
const keyNames = async () =>
  ((await (await portal.app.request("/auth/keys", { headers: { cookie: ada } })).json()).keys as { name: string }[]).map((k) => k.name);

async function expectCrossSite(res: Response): Promise<void> {
  expect(res.status).toBe(409);
  expect(await res.json()).toEqual({ error: { code: "cross_site_request", message: expect.any(String) } });
}

describe("a change carried by the session cookie", () => {
  it("from a foreign Origin is refused, with or without Sec-Fetch-Site, and changes nothing", async () => {
    await expectCrossSite(await createKey("no-metadata", { origin: "https://evil.example" }));
    await expectCrossSite(await createKey("sibling", { origin: "https://evil.portal.example.com" }));
    await expectCrossSite(await createKey("other-port", { origin: "http://127.0.0.1:9999" }));
    await expectCrossSite(await createKey("opaque", { origin: "null" }));
    await expectCrossSite(await createKey("claims-same", { origin: "https://evil.example", "sec-fetch-site": "same-origin" }));
    const listed = await portal.app.request("/auth/keys", { headers: { cookie: ada, origin: "https://evil.example" } });
    expect(listed.status).toBe(200); // reading is not a change
    expect(await keyNames()).toEqual([]);

    const made = await createKey("kept");
    const { key } = await made.json();
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    ];
    for (const headers of foreign) {
      await expectCrossSite(await portal.app.request(`/auth/keys/${key.id}`, { method: "DELETE", headers: { cookie: ada, ...headers } }));
    }
    expect(
      ((await (await portal.app.request("/auth/keys", { headers: { cookie: ada } })).json()).keys as { revoked: boolean }[])[0].revoked,
    ).toBe(false);
  });

  it("from the portal's own pages works: its public origin, or the host the request reached", async () => {
    expect((await createKey("public-origin", { origin: "https://portal.example.com", "sec-fetch-site": "same-origin" })).status).toBe(201);
    expect((await createKey("public-origin-old-browser", { origin: "https://portal.example.com" })).status).toBe(201);
    // A direct visit (no proxy in between): the request's own origin.
    expect((await createKey("direct", { origin: "http://127.0.0.1:8787" })).status).toBe(201);
    // A proxy that terminates TLS and keeps Host: the portal hears http for the browser's https.
    expect((await createKey("tls-proxy", { origin: "https://studio.example.net" }, "http://studio.example.net/auth/keys")).status).toBe(
      201,
    );
    // Not a browser: no Origin, no Fetch Metadata.
    expect((await createKey("script")).status).toBe(201);
    expect(await keyNames()).toEqual(
      expect.arrayContaining(["public-origin", "public-origin-old-browser", "direct", "tls-proxy", "script"]),
    );
  });
});

describe("every /auth/* answer", () => {
  const expectPrivate = (res: Response) => {
    expect(res.headers.get("cache-control"), `${res.status}`).toBe("no-store");
    expect(res.headers.get("x-content-type-options"), `${res.status}`).toBe("nosniff");
  };

  it("is no-store and nosniff, errors included", async () => {
    const answers = [
      await portal.app.request("/auth/keys", { headers: { cookie: ada } }), // 200
      await createKey("fresh"), // 201
      await portal.app.request("/auth/keys"), // 401 unwrapped
      await portal.app.request("/auth/nowhere", { headers: { cookie: ada } }), // 404
      await portal.app.request("/auth/keys", { method: "PUT", headers: { cookie: ada } }), // 405
      await createKey("x", { origin: "https://evil.example" }), // 409
      await createKey("x".repeat(100 * 1024)), // 413
      await portal.app.request("/auth/request-link", { method: "POST", headers: json, body: JSON.stringify({ email: "bob@example.com" }) }),
      await portal.app.request("/auth/request-link", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), // 415
      await portal.app.request("/auth/avatars/tones", { headers: { cookie: ada } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 201, 401, 404, 405, 409, 413, 200, 415, 200]);
    answers.forEach(expectPrivate);
  });

  it("keeps a route's own caching of media (signed asset paths)", async () => {
    const key = "avatars/0123456789abcdef/ada/portrait.png";
    await portal.app.services.assets.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47]), "image/png");
    const res = await portal.app.request(await portal.app.services.assets.signedGetUrl(key, 60));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const missing = await portal.app.request("/auth/assets/avatars/0123456789abcdef/ada/portrait.png?exp=1&sig=x");
    expect(missing.status).toBe(404);
    expectPrivate(missing);
  });
});
