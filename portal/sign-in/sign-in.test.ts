// Sign-in routes: magic links (neutral answer, single use, short-lived, rate-limited) and the
// ID-token exchange; the mail transports over their real channels (folder, SMTP socket).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeIdentityProvider } from "../testing/fake-idp.ts";
import { FakeSmtpServer } from "../testing/fake-smtp.ts";
import { cookieFrom, createTestPortal, linkFromMail, type TestPortal } from "../testing/test-portal.ts";
import { OutboxMailer } from "./outbox-mailer.ts";
import { NEUTRAL_LINK_ANSWER } from "./schema.ts";
import { SmtpMailer } from "./smtp-mailer.ts";

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

const requestLink = (body: unknown, contentType = "application/json") =>
  portal.app.request("/auth/request-link", { method: "POST", headers: { "content-type": contentType }, body: JSON.stringify(body) });
const mailsTo = (email: string) => portal.mailer.sent.filter((m) => m.to === email);
const keysWith = (cookie: string) => portal.app.request("/auth/keys", { headers: { cookie } });

describe("POST /auth/request-link", () => {
  it("answers the same for any address, mailing only a real one", async () => {
    const answers = await Promise.all(
      ["someone@example.com", "not-an-address", "nobody-ever@example.org"].map(async (email) => {
        const res = await requestLink({ email });
        return { status: res.status, body: await res.json() };
      }),
    );
    for (const a of answers) expect(a).toEqual({ status: 200, body: NEUTRAL_LINK_ANSWER });
    expect(mailsTo("someone@example.com")).toHaveLength(1);
    expect(portal.mailer.sent.some((m) => m.to === "not-an-address")).toBe(false);
  });

  it("rate-limits per address with the same neutral answer", async () => {
    const email = "busy@example.com";
    for (let i = 0; i < 7; i++) {
      const res = await requestLink({ email });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(NEUTRAL_LINK_ANSWER);
    }
    expect(mailsTo(email)).toHaveLength(5);
    // Another address is not held back by this one.
    await requestLink({ email: "calm@example.com" });
    expect(mailsTo("calm@example.com")).toHaveLength(1);
  });

  it("answers a long or malformed address the same, storing and mailing nothing for it", async () => {
    const links = async () => Number((await portal.client.execute("SELECT count(*) AS n FROM sign_in_links")).rows[0].n);
    const before = { links: await links(), mails: portal.mailer.sent.length };
    for (const email of [`${"a".repeat(330)}@example.com`, "x".repeat(321), "b".repeat(5000), "", "two@@example.com"]) {
      const res = await requestLink({ email, next: "/studio" });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: NEUTRAL_LINK_ANSWER });
    }
    expect(await links()).toBe(before.links);
    expect(portal.mailer.sent.length).toBe(before.mails);
  });

  it("lands on / for a `next` that is not a string, too long, or not a same-origin path", async () => {
    const nexts: unknown[] = [123, { a: 1 }, "/x".repeat(2500), null, true, ["/studio"], "https://evil.example/", "studio"];
    for (const [i, next] of nexts.entries()) {
      const email = `next-${i}@example.com`;
      const res = await requestLink({ email, next });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: NEUTRAL_LINK_ANSWER });
      const callback = await portal.app.request(linkFromMail(mailsTo(email)[0].text));
      expect(callback.status).toBe(303);
      expect(callback.headers.get("location")).toBe("/");
    }
    const longest = await portal.client.execute("SELECT max(length(next)) AS n FROM sign_in_links");
    expect(Number(longest.rows[0].n)).toBeLessThanOrEqual(2048);
  });

  it("answers 400 invalid_body only for a body without a string email", async () => {
    for (const body of [{}, { email: 5 }, { email: null }, { email: ["a@example.com"] }, { next: "/" }]) {
      const res = await requestLink(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: "invalid_body", message: expect.any(String) } });
    }
  });

  it("refuses a non-JSON post (no cross-site form can send it)", async () => {
    const res = await portal.app.request("/auth/request-link", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=x%40example.com",
    });
    expect(res.status).toBe(415);
    expect((await res.json()).error.code).toBe("unsupported_media_type");
  });

  it("answers a GET with 405 in the nested envelope", async () => {
    const res = await portal.app.request("/auth/request-link");
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ error: { code: "method_not_allowed", message: expect.any(String) } });
  });
});

describe("GET /auth/callback", () => {
  it("redeems a link once, sets the session cookie, and lands on the asked path", async () => {
    await requestLink({ email: "Once@Example.com", next: "/studio?x=1" });
    const link = linkFromMail(mailsTo("once@example.com")[0].text);
    const res = await portal.app.request(link);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/studio?x=1");
    const set = res.headers.get("set-cookie")!;
    expect(set).toMatch(/^portal_session=/);
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).not.toMatch(/Secure/i); // loopback host
    const keys = await keysWith(cookieFrom(res));
    expect(keys.status).toBe(200);

    const replay = await portal.app.request(link);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error.code).toBe("invalid_link");
    expect(replay.headers.get("set-cookie")).toBeNull();
  });

  it("marks the cookie Secure off loopback and never redirects off-site", async () => {
    await requestLink({ email: "remote@example.com", next: "//evil.example/x" });
    const link = new URL(linkFromMail(mailsTo("remote@example.com")[0].text));
    const res = await portal.app.request(`https://portal.example.com${link.pathname}${link.search}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.get("set-cookie")).toMatch(/; Secure/i);
  });

  it("refuses an expired link and a forged one", async () => {
    await requestLink({ email: "late@example.com" });
    const link = linkFromMail(mailsTo("late@example.com")[0].text);
    clock += 16 * 60 * 1000;
    try {
      const res = await portal.app.request(link);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_link");
    } finally {
      clock = Date.now();
    }
    for (const token of ["x".repeat(43), "", "../../etc"]) {
      const res = await portal.app.request(`/auth/callback?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_link");
    }
  });

  it("lets two racing redemptions of one link produce one session", async () => {
    await requestLink({ email: "race@example.com" });
    const link = linkFromMail(mailsTo("race@example.com")[0].text);
    const results = await Promise.all([1, 2, 3, 4].map(() => portal.app.request(link)));
    expect(results.map((r) => r.status).sort()).toEqual([303, 400, 400, 400]);
  });
});

describe("POST /auth/session/exchange", () => {
  it("trades a valid ID token for the session cookie", async () => {
    const res = await portal.app.request("/auth/session/exchange", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id_token: await idp.mint("Exchange@Example.com") }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ ok: true, email: "exchange@example.com", expires_at: expect.any(Number) });
    expect((await keysWith(cookieFrom(res))).status).toBe(200);
  });

  it("accepts the token as Bearer too, and refuses a bad one with 401", async () => {
    const ok = await portal.app.request("/auth/session/exchange", {
      method: "POST",
      headers: { authorization: `Bearer ${await idp.mint("b@example.com")}` },
    });
    expect(ok.status).toBe(200);
    const bad = await portal.app.request("/auth/session/exchange", {
      method: "POST",
      headers: { authorization: `Bearer ${idp.mintUnsigned("b@example.com")}` },
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ code: "invalid_api_key", message: expect.any(String) });
    expect(bad.headers.get("set-cookie")).toBeNull();
  });
});

describe("mail transports", () => {
  it("writes the link into an outbox folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portal-outbox-"));
    try {
      await new OutboxMailer(dir).send({
        to: "o@example.com",
        subject: "Your sign-in link",
        text: "go: http://x/auth/callback?token=abc\n",
      });
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const raw = readFileSync(join(dir, files[0]), "utf8");
      expect(raw).toMatch(/^To: o@example.com\r$/m);
      expect(raw).toContain("http://x/auth/callback?token=abc");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sends the link over SMTP", async () => {
    const smtp = await FakeSmtpServer.start();
    const mailer = new SmtpMailer(smtp.url);
    try {
      await mailer.send({ to: "s@example.com", subject: "Your sign-in link", text: "go: http://x/auth/callback?token=abc\n" });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].to).toEqual(["s@example.com"]);
      expect(smtp.received[0].data).toContain("http://x/auth/callback?token=abc");
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});
