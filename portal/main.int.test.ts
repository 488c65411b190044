// The Bun entry end to end: start contract (PORTAL_PORT=0 and the listening line), magic-link
// sign-in through the outbox folder, ID tokens against a loopback JWKS, the generated secret, and
// one host: HTTP and WebSocket forwarding to a box.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { FakeElevenLabs } from "../box/tts/elevenlabs/testing/fake-elevenlabs.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { FakeIdentityProvider } from "./testing/fake-idp.ts";
import { startPortalProcess, type PortalProcess } from "./testing/portal-process.ts";

const dir = mkdtempSync(join(tmpdir(), "portal-e2e-"));
const outbox = join(dir, "outbox");
let idp: FakeIdentityProvider;
let box: Server;
let wss: WebSocketServer;
let portal: PortalProcess;

beforeAll(async () => {
  idp = await FakeIdentityProvider.start();
  // A stand-in box: HTTP routes, and a WebSocket that greets at once, echoes, and closes with 4007 on "bye".
  box = createServer((req, res) => {
    if (req.url?.startsWith("/api/session/ws") && !req.url.includes("session_token=good")) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ code: "missing_api_key", message: "no key" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok", via: req.headers["x-forwarded-host"] }));
  });
  wss = new WebSocketServer({
    server: box,
    verifyClient: (info, done) => (info.req.url?.includes("session_token=good") ? done(true) : done(false, 401, "Unauthorized")),
  });
  wss.on("connection", (socket) => {
    socket.send(JSON.stringify({ type: "session_ready" }));
    socket.on("message", (data, isBinary) => {
      if (!isBinary && data.toString() === "bye") socket.close(4007, "idle");
      else socket.send(data, { binary: isBinary });
    });
  });
  await new Promise<void>((r) => box.listen(0, "127.0.0.1", r));
  portal = await startPortalProcess({
    PORTAL_DB_URL: pathToFileURL(join(dir, "portal.db")).href,
    PORTAL_DATA_DIR: dir,
    PORTAL_MAIL_OUTBOX: outbox,
    PORTAL_GPU_DRIVER: "none",
    PORTAL_BOX_URL: `http://127.0.0.1:${(box.address() as AddressInfo).port}`,
    PORTAL_OIDC_ISSUER: idp.issuer,
    PORTAL_OIDC_AUDIENCE: idp.audience,
    PORTAL_OIDC_JWKS_URL: idp.jwksUrl,
  });
});
afterAll(async () => {
  await portal?.stop();
  wss?.close();
  await new Promise<void>((r) => box.close(() => r()));
  await idp.close();
  rmSync(dir, { recursive: true, force: true });
});

function latestLinkFor(email: string): string {
  for (const name of readdirSync(outbox).sort().reverse()) {
    const raw = readFileSync(join(outbox, name), "utf8");
    if (raw.includes(`\r\nTo: ${email}\r\n`)) return /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(raw)![1];
  }
  throw new Error(`no mail for ${email} in the outbox`);
}

describe("bun portal/main.ts", () => {
  it("listens on a free port and keeps /auth/* behind an identity", async () => {
    expect(portal.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${portal.url}/auth/keys`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: "missing_api_key", message: expect.any(String) });
  });

  it("generates the secret once into the data folder", () => {
    const st = statSync(join(dir, "portal-secret"));
    expect(st.mode & 0o077).toBe(0);
    expect(readFileSync(join(dir, "portal-secret"), "utf8").trim().length).toBeGreaterThanOrEqual(32);
  });

  it("signs in with a magic link written to the outbox, once", async () => {
    const asked = await fetch(`${portal.url}/auth/request-link`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", next: "/studio" }),
    });
    expect(asked.status).toBe(200);
    const link = latestLinkFor("ada@example.com");
    expect(link.startsWith(`${portal.url}/auth/callback?token=`)).toBe(true);

    const landed = await fetch(link, { redirect: "manual" });
    expect(landed.status).toBe(303);
    expect(landed.headers.get("location")).toBe("/studio");
    const cookie = landed.headers.get("set-cookie")!.split(";")[0];

    const created = await fetch(`${portal.url}/auth/keys`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "from e2e" }),
    });
    expect(created.status).toBe(201);
    const listed = await (await fetch(`${portal.url}/auth/keys`, { headers: { cookie } })).json();
    expect(listed.keys.map((k: { name: string }) => k.name)).toEqual(["from e2e"]);
    const { key } = await created.json();
    expect((await fetch(`${portal.url}/auth/keys/${key.id}`, { method: "DELETE", headers: { cookie } })).status).toBe(200);
    const after = await (await fetch(`${portal.url}/auth/keys`, { headers: { cookie } })).json();
    expect(after.keys[0]).toMatchObject({ id: key.id, revoked: true, revoked_by: "ada@example.com" });

    expect((await fetch(link, { redirect: "manual" })).status).toBe(400);
    await fetch(`${portal.url}/auth/logout`, { method: "POST", headers: { cookie } });
    expect((await fetch(`${portal.url}/auth/keys`, { headers: { cookie } })).status).toBe(401);
  });

  it("accepts an ID token from the configured provider and refuses a forged one", async () => {
    const ok = await fetch(`${portal.url}/auth/keys`, { headers: { authorization: `Bearer ${await idp.mint("grace@example.com")}` } });
    expect(ok.status).toBe(200);
    const bad = await fetch(`${portal.url}/auth/keys`, {
      headers: { authorization: `Bearer ${await idp.mint("grace@example.com", { foreignKey: true })}` },
    });
    expect(bad.status).toBe(401);
  });

  it("forwards box HTTP paths on the same origin", async () => {
    const res = await fetch(`${portal.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", via: new URL(portal.url).host });
  });

  it("relays a box WebSocket: early frames, both directions, binary, and the close code", async () => {
    const socket = new WebSocket(`${portal.url.replace("http", "ws")}/api/session/ws?session_token=good`);
    const frames: (string | Buffer)[] = [];
    const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
    const got = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (frames.length >= n ? resolve() : setTimeout(check, 10));
        check();
      });
    socket.on("message", (data, isBinary) => frames.push(isBinary ? (data as Buffer) : data.toString()));
    await new Promise<void>((resolve, reject) => (socket.on("open", () => resolve()), socket.on("error", reject)));
    await got(1);
    expect(JSON.parse(frames[0] as string)).toEqual({ type: "session_ready" });
    socket.send(JSON.stringify({ type: "heartbeat" }));
    socket.send(Buffer.from([1, 2, 3]));
    await got(3);
    expect(frames[1]).toBe('{"type":"heartbeat"}');
    expect([...(frames[2] as Buffer)]).toEqual([1, 2, 3]);
    socket.send("bye");
    expect(await closed).toBe(4007);
  });

  it("answers a refused upgrade with the box's own 401, opening no socket", async () => {
    const socket = new WebSocket(`${portal.url.replace("http", "ws")}/api/session/ws`);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      socket.on("unexpected-response", (_req, res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      socket.on("open", () => reject(new Error("socket opened")));
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toEqual({ code: "missing_api_key", message: "no key" });
  });
});

const ELEVEN_KEY = "sk_local_box_voice_0123456789abcdef";

describe("bun portal/main.ts with the local driver (what npm start runs)", () => {
  it("launches a real box, fronts it on one origin, speaks with a voice key saved here, and stops it on exit", async () => {
    const local = mkdtempSync(join(tmpdir(), "portal-e2e-local-"));
    // ElevenLabs' protocol fake serves both the portal's key check and the box's speech.
    const eleven = await FakeElevenLabs.start({ apiKey: ELEVEN_KEY });
    const running = await startPortalProcess({
      PORTAL_ELEVENLABS_BASE_URL: eleven.url,
      BOX_ELEVENLABS_BASE_URL: eleven.url,
      PORTAL_DB_URL: pathToFileURL(join(local, "portal.db")).href,
      PORTAL_DATA_DIR: local,
      PORTAL_BOX_DATA_DIR: join(local, "box"),
      PORTAL_MAIL_OUTBOX: join(local, "outbox"),
      PORTAL_GPU_DRIVER: "local",
      PORTAL_GPU_AUTOLAUNCH: "1",
      PORTAL_ADMIN_EMAILS: "admin@example.com",
      PORTAL_OIDC_ISSUER: idp.issuer,
      PORTAL_OIDC_AUDIENCE: idp.audience,
      PORTAL_OIDC_JWKS_URL: idp.jwksUrl,
    });
    try {
      const health = await fetch(`${running.url}/health`);
      expect(health.status).toBe(200);
      expect((await health.json()).status).toBe("ok");

      const auth = { authorization: `Bearer ${await idp.mint("admin@example.com")}` };
      const status = await (await fetch(`${running.url}/auth/gpu/status`, { headers: auth })).json();
      expect(status.gpu).toMatchObject({ state: "running", region: "local" });
      const boxUrl = `http://${status.gpu.hostname}`;

      const created = await fetch(`${running.url}/auth/keys`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "k" }),
      });
      const { key } = await created.json();
      expect((await fetch(`${running.url}/api/chat/status`, { headers: { "x-api-key": key.secret } })).status).toBe(200);
      const { credential } = await (await fetch(`${running.url}/auth/session/credential`, { method: "POST", headers: auth })).json();
      const bearer = { authorization: `Bearer ${credential.secret}` };
      const before = await (await fetch(`${running.url}/api/chat/status`, { headers: bearer })).json();
      expect(before).toMatchObject({ voice_origin: "box", voice_provider: "espeak", voice_notice: "" });

      // The person saves their ElevenLabs key and chooses it: the box reads both from the shared
      // database (opening the key with the material the portal gave it) and speaks on their account.
      const json = { ...auth, "content-type": "application/json" };
      expect(
        (
          await fetch(`${running.url}/auth/voice/key`, {
            method: "PUT",
            headers: json,
            body: JSON.stringify({ provider: "elevenlabs", key: ELEVEN_KEY }),
          })
        ).status,
      ).toBe(200);
      expect(
        (await fetch(`${running.url}/auth/voice/engine`, { method: "PUT", headers: json, body: JSON.stringify({ engine: "elevenlabs" }) }))
          .status,
      ).toBe(200);
      await new Promise((r) => setTimeout(r, 5_100)); // the box re-reads a person's choice every 5 s
      const after = await (await fetch(`${running.url}/api/chat/status`, { headers: bearer })).json();
      expect(after).toMatchObject({ voice_origin: "user", voice_provider: "elevenlabs", voice_notice: "" });
      const voices = await (await fetch(`${running.url}/api/voices`, { headers: bearer })).json();
      expect(voices).toMatchObject({ provider: "elevenlabs", byo: true });
      expect(voices.groups.find((g: { provider: string }) => g.provider === "elevenlabs").state).toBe("ready");
      await eleven.close();

      expect(await running.stop()).toBe(0);
      await expect(fetch(`${boxUrl}/health`)).rejects.toThrow();
    } finally {
      running.child.kill("SIGKILL");
      rmSync(local, { recursive: true, force: true });
    }
  });
});
