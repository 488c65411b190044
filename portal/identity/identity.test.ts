// Plane B identity: ID tokens verified against a JWKS served on loopback, and the session cookie.
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeIdentityProvider } from "../testing/fake-idp.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";

let idp: FakeIdentityProvider;
let portal: TestPortal;
let clock = Date.now();

beforeAll(async () => {
  idp = await FakeIdentityProvider.start();
  portal = await createTestPortal({
    oidc: { issuer: idp.issuer, audience: idp.audience, jwks: idp.jwksUrl },
    now: () => clock,
  });
});
afterAll(async () => {
  await portal.close();
  await idp.close();
});

const keysWith = (headers: Record<string, string>) => portal.app.request("/auth/keys", { headers });
const bearer = (token: string) => keysWith({ authorization: `Bearer ${token}` });

async function expectUnwrapped401(res: Response, code: string) {
  expect(res.status).toBe(401);
  const body = await res.json();
  expect(body).toEqual({ code, message: expect.any(String) });
}

describe("ID token as Bearer", () => {
  it("accepts a token signed by the provider's key for this audience", async () => {
    const res = await bearer(await idp.mint("Ada@Example.com"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ keys: [] });
  });

  it("refuses a wrong issuer", async () => {
    await expectUnwrapped401(await bearer(await idp.mint("ada@example.com", { issuer: "https://evil.example" })), "invalid_api_key");
  });

  it("refuses a wrong audience", async () => {
    await expectUnwrapped401(await bearer(await idp.mint("ada@example.com", { audience: "someone-else" })), "invalid_api_key");
  });

  it("refuses an expired token", async () => {
    await expectUnwrapped401(await bearer(await idp.mint("ada@example.com", { expiresIn: -120 })), "invalid_api_key");
  });

  it("refuses an unsigned token (alg: none)", async () => {
    await expectUnwrapped401(await bearer(idp.mintUnsigned("ada@example.com")), "invalid_api_key");
  });

  it("refuses an unknown key id", async () => {
    await expectUnwrapped401(await bearer(await idp.mint("ada@example.com", { kid: "no-such-key" })), "invalid_api_key");
  });

  it("refuses a token signed with another key under the published key id", async () => {
    await expectUnwrapped401(await bearer(await idp.mint("ada@example.com", { foreignKey: true })), "invalid_api_key");
  });

  it("refuses a shared-secret (HS256) token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ email: "ada@example.com" })
      .setProtectedHeader({ alg: "HS256", kid: idp.kid })
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode("a-shared-secret-that-is-long-enough"));
    await expectUnwrapped401(await bearer(token), "invalid_api_key");
  });

  it("refuses a token whose provider says the address is unverified", async () => {
    const token = await idp.mint("ada@example.com", { extraClaims: { email_verified: false } });
    await expectUnwrapped401(await bearer(token), "invalid_api_key");
  });

  it("gives a box API key no meaning (fact 3)", async () => {
    await expectUnwrapped401(await bearer("ak_" + "x".repeat(43)), "invalid_api_key");
  });
});

describe("session cookie", () => {
  it("refuses a forged cookie, a tampered one, and one replayed after logout", async () => {
    const cookie = await portal.signIn("grace@example.com");
    expect((await keysWith({ cookie })).status).toBe(200);

    const [name, value] = cookie.split("=");
    const [token, sig] = value.split(".");
    await expectUnwrapped401(await keysWith({ cookie: `${name}=${"A".repeat(43)}.${"B".repeat(43)}` }), "invalid_api_key");
    const flipped = sig[0] === "A" ? "B" + sig.slice(1) : "A" + sig.slice(1);
    await expectUnwrapped401(await keysWith({ cookie: `${name}=${token}.${flipped}` }), "invalid_api_key");

    const out = await portal.app.request("/auth/logout", { method: "POST", headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/portal_session=;.*Max-Age=0/i);
    await expectUnwrapped401(await keysWith({ cookie }), "invalid_api_key");
  });

  it("refuses a cookie whose session has expired", async () => {
    const cookie = await portal.signIn("linus@example.com");
    expect((await keysWith({ cookie })).status).toBe(200);
    clock += 8 * 24 * 3600 * 1000;
    try {
      await expectUnwrapped401(await keysWith({ cookie }), "invalid_api_key");
    } finally {
      clock = Date.now();
    }
  });
});

describe("every /auth/* route but sign-in needs an identity", () => {
  const routes: [string, string][] = [
    ["GET", "/auth/keys"],
    ["POST", "/auth/keys"],
    ["DELETE", "/auth/keys/" + "0".repeat(64)],
    ["POST", "/auth/session/credential"],
    ["GET", "/auth/avatars/tones"],
    ["GET", "/auth/gpu/status"],
    ["POST", "/auth/gpu/launch"],
    ["GET", "/auth/gpu/diagnostics"],
    ["GET", "/auth/no-such-route"],
  ];
  for (const [method, path] of routes) {
    it(`${method} ${path} → 401 missing_api_key`, async () => {
      await expectUnwrapped401(await portal.app.request(path, { method }), "missing_api_key");
    });
  }

  it("sends no CORS headers on /auth/*", async () => {
    const token = await idp.mint("ada@example.com");
    const pre = await portal.app.request("/auth/keys", {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" },
    });
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const res = await portal.app.request("/auth/keys", {
      headers: { origin: "https://elsewhere.example", authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("serves the tone vocabulary to a signed-in person", async () => {
    const token = await idp.mint("ada@example.com");
    const ok = await portal.app.request("/auth/avatars/tones", { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).tones).toContain("neutral");
  });
});

describe("signers", () => {
  it("the synchronous node:crypto signer signs exactly as the Web Crypto one", async () => {
    const { NodeSigner } = await import("./node-signer.ts");
    const { WebCryptoSigner } = await import("./tokens.ts");
    const secret = "s".repeat(40);
    expect(new NodeSigner(secret).sign("session", "abc")).toBe(await new WebCryptoSigner(secret).sign("session", "abc"));
    expect(new NodeSigner(secret).sign("session", "abc")).not.toBe(new NodeSigner("t".repeat(40)).sign("session", "abc"));
  });
});
