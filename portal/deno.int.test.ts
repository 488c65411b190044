// The portal's two entries, one suite: the same request sequences and the same refusals (statuses,
// codes, envelopes) against the Bun entry (portal/main.ts) and the Deno entry (portal/deno.ts, the
// `local` permission profile: a `file:` database, the outbox folder, the file asset store, sharp).
// Each entry is one process for the whole file. Covered: the start contract, magic-link sign-in,
// ID tokens, keys, the session credential, the `none` GPU driver, the avatar library as a box
// writes it, consent, assets, portraits, voice settings, the studio, one-host HTTP and WebSocket
// forwarding, and the body, method, media-type, cross-site and not-found refusals.
// The `ec2` driver and the edge configuration: portal/deno-edge.int.test.ts.
import { createClient, type Client } from "@libsql/client";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { createServer, get as httpGet, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { FolderSink } from "../box/avatars/archive/sink.ts";
import { SharedRecords } from "../box/avatars/own/shared-records.ts";
import { clipKey, portraitKey } from "../shared/asset-layout/asset-keys.ts";
import { BUILD_COMMAND } from "./deno/studio-script.ts";
import { FakeIdentityProvider } from "./testing/fake-idp.ts";
import { startPortalProcess, type PortalProcess, type PortalRuntime } from "./testing/portal-process.ts";
import { startFakeCartesia, type FakeCartesia } from "./voice-keys/testing/fake-cartesia.ts";
import { startFakeElevenLabs, type FakeElevenLabs } from "./voice-keys/testing/fake-elevenlabs.ts";

const ELEVEN_KEY = "sk_entriesELEVEN_5b6a79880f1e2d3c4b5a6978";
const CARTESIA_KEY = "sk_car_entriesCARTESIA_Hq2Jk3Lm4Np5";
const ADMIN = "admin@example.com";
const ADA = "ada@example.com";

let idp: FakeIdentityProvider;
let box: Server;
let wss: WebSocketServer;
let eleven: FakeElevenLabs;
let cartesia: FakeCartesia;
/** The studio script as `bun portal/deno/build-studio.ts` writes it (built once for the file). */
let studioScript: string;
const scratch = mkdtempSync(join(tmpdir(), "portal-entries-"));

beforeAll(async () => {
  idp = await FakeIdentityProvider.start();
  eleven = await startFakeElevenLabs({ acceptedKey: ELEVEN_KEY });
  cartesia = await startFakeCartesia({ acceptedKey: CARTESIA_KEY });
  // A stand-in box: HTTP routes, and a WebSocket that greets at once, echoes, and closes with 4007 on "bye".
  box = createServer((req, res) => {
    if (req.url?.startsWith("/api/session/ws") && !req.url.includes("session_token=good")) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ code: "missing_api_key", message: "no key" }));
      return;
    }
    if (req.url === "/api/forbidden") {
      res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "not_yours", message: "no" } }));
      return;
    }
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          status: "ok",
          via: req.headers["x-forwarded-host"],
          cookie: req.headers.cookie ?? null,
          method: req.method,
          body,
        }),
      ),
    );
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
  studioScript = join(scratch, "built", "app.js");
  const built = spawnSync("node_modules/.bin/bun", ["portal/deno/build-studio.ts", studioScript], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`the studio script did not build: ${built.stderr}`);
});
afterAll(async () => {
  wss?.close();
  await new Promise<void>((r) => (box ? box.close(() => r()) : r()));
  await idp?.close();
  await eleven?.close();
  await cartesia?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const json = { "content-type": "application/json" };
const nested = (code: string) => ({ error: { code, message: expect.any(String) } });

for (const runtime of ["bun", "deno"] as PortalRuntime[]) {
  describe(`the ${runtime} entry`, () => {
    let dir: string;
    let outbox: string;
    let dbUrl: string;
    let portal: PortalProcess;
    let records: Client;
    let boxRecords: SharedRecords;
    let ada: string;
    let admin: string;
    const url = (path: string) => `${portal.url}${path}`;
    const call = (cookie: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(url(path), {
        method,
        headers: { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : json), ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        redirect: "manual",
      });

    function mails(): string[] {
      return existsSync(outbox)
        ? readdirSync(outbox)
            .filter((n) => n.endsWith(".eml"))
            .sort()
        : [];
    }
    async function signIn(email: string, next?: string): Promise<{ cookie: string; link: string; landed: Response }> {
      const before = new Set(mails());
      const asked = await call(null, "POST", "/auth/request-link", next ? { email, next } : { email });
      expect(asked.status).toBe(200);
      const name = mails().find((n) => !before.has(n));
      if (!name) throw new Error(`no mail for ${email}`);
      const mail = readFileSync(join(outbox, name), "utf8");
      expect(mail).toContain(`\r\nTo: ${email}\r\n`);
      const link = /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(mail)![1];
      const landed = await fetch(link, { redirect: "manual" });
      return { cookie: landed.headers.get("set-cookie")!.split(";")[0], link, landed };
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), `portal-${runtime}-entry-`));
      outbox = join(dir, "outbox");
      mkdirSync(join(dir, "studio"));
      copyFileSync(studioScript, join(dir, "studio", "app.js"));
      dbUrl = pathToFileURL(join(dir, "portal.db")).href;
      portal = await startPortalProcess(
        {
          PORTAL_DB_URL: dbUrl,
          PORTAL_DATA_DIR: dir,
          PORTAL_MAIL_OUTBOX: outbox,
          PORTAL_GPU_DRIVER: "none",
          PORTAL_ADMIN_EMAILS: ADMIN,
          PORTAL_BOX_URL: `http://127.0.0.1:${(box.address() as AddressInfo).port}`,
          PORTAL_OIDC_ISSUER: idp.issuer,
          PORTAL_OIDC_AUDIENCE: idp.audience,
          PORTAL_OIDC_JWKS_URL: idp.jwksUrl,
          PORTAL_ELEVENLABS_BASE_URL: eleven.url,
          PORTAL_CARTESIA_BASE_URL: cartesia.url,
          PORTAL_STUDIO_SCRIPT: join(dir, "studio", "app.js"),
        },
        { runtime },
      );
      records = createClient({ url: dbUrl, timeout: 5000 });
      boxRecords = new SharedRecords(records, true, false, { region: "eu-west-1", volume: "vol-box" });
    });
    afterAll(async () => {
      records?.close();
      await portal?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("listens on a free port, keeps /auth/* behind an identity (unwrapped 401) and generates the secret once", async () => {
      expect(portal.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The process serving is the runtime named (the binary behind node_modules/.bin/<runtime>).
      expect(realpathSync(`/proc/${portal.child.pid}/exe`)).toMatch(new RegExp(`/${runtime}(\\.exe)?$`));
      const res = await call(null, "GET", "/auth/keys");
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: "missing_api_key", message: expect.any(String) });
      const st = statSync(join(dir, "portal-secret"));
      expect(st.mode & 0o077).toBe(0);
      expect(readFileSync(join(dir, "portal-secret"), "utf8").trim().length).toBeGreaterThanOrEqual(32);
    });

    it("signs in with a magic link written to the outbox, once; logout ends the session", async () => {
      const { cookie, link, landed } = await signIn(ADA, "/studio");
      expect(link.startsWith(`${portal.url}/auth/callback?token=`)).toBe(true);
      expect(landed.status).toBe(303);
      expect(landed.headers.get("location")).toBe("/studio");
      expect(landed.headers.get("set-cookie")).toMatch(/HttpOnly/i);
      expect((await call(cookie, "GET", "/auth/keys")).status).toBe(200);
      const replay = await fetch(link, { redirect: "manual" });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toEqual(nested("invalid_link"));
      expect((await call(cookie, "POST", "/auth/logout")).status).toBe(200);
      expect((await call(cookie, "GET", "/auth/keys")).status).toBe(401);
      ada = (await signIn(ADA)).cookie;
      admin = (await signIn(ADMIN)).cookie;
    });

    it("refuses sign-in requests that are not JSON objects, the wrong media type or method, and a forged link", async () => {
      for (const body of ["{nope", "[]", '"ada@example.com"']) {
        const res = await call(null, "POST", "/auth/request-link", body);
        expect(res.status, body).toBe(400);
        expect(await res.json()).toEqual(nested("invalid_body"));
      }
      const plain = await call(null, "POST", "/auth/request-link", JSON.stringify({ email: ADA }), { "content-type": "text/plain" });
      expect(plain.status).toBe(415);
      expect(await plain.json()).toEqual(nested("unsupported_media_type"));
      const get = await call(null, "GET", "/auth/request-link");
      expect(get.status).toBe(405);
      expect(await get.json()).toEqual(nested("method_not_allowed"));
      const forged = await call(null, "GET", "/auth/callback?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
      expect(forged.status).toBe(400);
      expect(await forged.json()).toEqual(nested("invalid_link"));
    });

    it("accepts an ID token from the configured provider and refuses a forged or expired one (unwrapped 401)", async () => {
      const ok = await call(null, "GET", "/auth/keys", undefined, { authorization: `Bearer ${await idp.mint("grace@example.com")}` });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ keys: [] });
      for (const token of [
        await idp.mint("grace@example.com", { foreignKey: true }),
        await idp.mint("grace@example.com", { expiresIn: -60 }),
        "not.a.jwt",
      ]) {
        const bad = await call(null, "GET", "/auth/keys", undefined, { authorization: `Bearer ${token}` });
        expect(bad.status).toBe(401);
        expect(await bad.json()).toEqual({ code: "invalid_api_key", message: expect.any(String) });
      }
    });

    it("creates, lists and revokes keys, storing only digests", async () => {
      const created = await call(ada, "POST", "/auth/keys", { name: "from the suite" });
      expect(created.status).toBe(201);
      const { key } = await created.json();
      expect(key).toMatchObject({ id: expect.any(String), name: "from the suite", secret: expect.any(String), revoked: false });
      const listed = await (await call(ada, "GET", "/auth/keys")).json();
      expect(listed.keys.map((k: { id: string; name: string; secret?: string }) => [k.id, k.name, k.secret])).toEqual([
        [key.id, "from the suite", undefined],
      ]);
      const row = await records.execute({ sql: "SELECT * FROM credentials WHERE id = ?", args: [key.id] });
      expect(row.rows).toHaveLength(1);
      expect(JSON.stringify(row.rows[0])).not.toContain(key.secret);
      expect((await call(ada, "DELETE", `/auth/keys/${key.id}`)).status).toBe(200);
      const after = await (await call(ada, "GET", "/auth/keys")).json();
      expect(after.keys[0]).toMatchObject({ id: key.id, revoked: true, revoked_by: ADA });
    });

    it("refuses bad key requests the same way: name, unknown key, method, cross-site, body size (declared and streamed)", async () => {
      const badName = await call(ada, "POST", "/auth/keys", { name: "x".repeat(500) });
      expect(badName.status).toBe(400);
      expect(await badName.json()).toEqual(nested("invalid_name"));
      const unknown = await call(ada, "DELETE", "/auth/keys/no-such-key");
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual(nested("key_not_found"));
      const put = await call(ada, "PUT", "/auth/keys", { name: "x" });
      expect(put.status).toBe(405);
      expect(await put.json()).toEqual(nested("method_not_allowed"));
      const csrf = await call(ada, "POST", "/auth/keys", JSON.stringify({ name: "csrf" }), {
        "content-type": "text/plain",
        "sec-fetch-site": "cross-site",
      });
      expect(csrf.status).toBe(409);
      expect(await csrf.json()).toEqual(nested("cross_site_request"));
      const big = await call(ada, "POST", "/auth/keys", { name: "x".repeat(100 * 1024) });
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual(nested("body_too_large"));
      // No Content-Length: the limit holds on the bytes as they arrive.
      const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent++ < 8) c.enqueue(chunk);
          else c.close();
        },
      });
      const streamed = await fetch(url("/auth/keys"), {
        method: "POST",
        headers: { cookie: ada, ...json },
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(await streamed.json()).toEqual(nested("body_too_large"));
      const keys = (await (await call(ada, "GET", "/auth/keys")).json()).keys as { name: string }[];
      expect(keys.map((k) => k.name)).toEqual(["from the suite"]);
    });

    it("answers an unknown route 404 not_found (nested) and a box path it forwards", async () => {
      const res = await call(ada, "GET", "/nowhere");
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(nested("not_found"));
      const auth = await call(ada, "GET", "/auth/nowhere");
      expect(auth.status).toBe(404);
      expect(await auth.json()).toEqual(nested("not_found"));
    });

    it("mints a session credential on POST only", async () => {
      const res = await call(ada, "POST", "/auth/session/credential");
      expect(res.status).toBe(201);
      const { credential } = await res.json();
      expect(credential).toEqual({
        secret: expect.stringMatching(/^sc_/),
        expires_at: expect.any(Number),
        expires_in: 3600,
        scope: "full",
      });
      const get = await call(ada, "GET", "/auth/session/credential");
      expect(get.status).toBe(405);
      expect(await get.json()).toEqual(nested("method_not_allowed"));
      const none = await call(null, "POST", "/auth/session/credential");
      expect(none.status).toBe(401);
      expect(await none.json()).toEqual({ code: "missing_api_key", message: expect.any(String) });
    });

    it("GPU routes with the none driver: status, 503 verbs, 409 for non-administrators, 405, 400", async () => {
      const status = await call(admin, "GET", "/auth/gpu/status");
      expect(status.status).toBe(200);
      expect((await status.json()).gpu).toMatchObject({ state: "none", can_launch: false, max_runtime_seconds: 7200 });
      for (const verb of ["start", "stop", "launch", "terminate"]) {
        const res = await call(admin, "POST", `/auth/gpu/${verb}`);
        expect(res.status, verb).toBe(503);
        expect(await res.json()).toEqual(nested("gpu_launch_not_configured"));
        const get = await call(admin, "GET", `/auth/gpu/${verb}`);
        expect(get.status).toBe(405);
        expect(await get.json()).toEqual(nested("method_not_allowed"));
      }
      const stranger = await call(ada, "GET", "/auth/gpu/status");
      expect(stranger.status).toBe(409);
      expect(await stranger.json()).toEqual(nested("gpu_admin_only"));
      const notJson = await call(admin, "POST", "/auth/gpu/launch", "{nope");
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toEqual(nested("invalid_body"));
    });

    it("shows what a box writes on its own connection on the very next request", async () => {
      const library = async () => {
        const res = await call(ada, "GET", "/auth/avatars");
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        return (await res.json()).avatars as Record<string, unknown>[];
      };
      expect(await library()).toEqual([]);
      expect(await library()).toEqual([]);
      await boxRecords.observe({
        subject: `owner:${ADA}`,
        avatarId: "face-1",
        name: "face-1.jpg",
        sourceKind: "photo",
        state: "preparing",
      });
      expect((await library()).find((a) => a.avatar_id === "face-1")).toMatchObject({
        state: "preparing",
        prepared_in_region: "eu-west-1",
        visibility: "private",
      });
      await boxRecords.observe({
        subject: `owner:${ADA}`,
        avatarId: "face-1",
        name: "face-1.jpg",
        sourceKind: "photo",
        state: "ready",
        detail: "ready now",
      });
      expect((await library()).find((a) => a.avatar_id === "face-1")).toMatchObject({ state: "ready", detail: "ready now" });
      const theirs = await call(admin, "GET", "/auth/avatars");
      expect((await theirs.json()).avatars).toEqual([]);
    });

    it("consent: attests an upload, agrees to publication, flips visibility, and refuses what it must", async () => {
      const digest = createHash("sha256").update(`bytes for ${runtime}`).digest("hex");
      const attested = await call(ada, "POST", "/auth/consent", { sha256: digest, source_kind: "photo" });
      expect(attested.status).toBe(201);
      expect((await attested.json()).consent).toMatchObject({ consent_id: expect.stringMatching(/^uc_/), source_kind: "photo" });
      const attestations = await records.execute("SELECT count(*) AS n FROM upload_attestations");
      expect(Number(attestations.rows[0].n)).toBe(1);
      for (const [body, code] of [
        [{ sha256: digest.slice(1) }, "invalid_sha256"],
        [{ sha256: digest, source_kind: "PHOTO" }, "invalid_source_kind"],
        ["{sha256:", "invalid_body"],
      ] as const) {
        const res = await call(ada, "POST", "/auth/consent", body);
        expect(res.status, code).toBe(400);
        expect(await res.json()).toEqual(nested(code));
      }
      expect(Number((await records.execute("SELECT count(*) AS n FROM upload_attestations")).rows[0].n)).toBe(1);

      const terms = await call(ada, "GET", "/auth/avatars/publication-terms");
      expect(terms.status).toBe(200);
      expect((await terms.json()).terms).toMatchObject({ version: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      const early = await call(ada, "PUT", "/auth/avatars/face-1/visibility", { visibility: "public" });
      expect(early.status).toBe(409);
      expect(await early.json()).toEqual(nested("publication_consent_required"));
      const badVisibility = await call(ada, "PUT", "/auth/avatars/face-1/visibility", { visibility: "everyone" });
      expect(badVisibility.status).toBe(400);
      expect(await badVisibility.json()).toEqual(nested("invalid_visibility"));
      expect((await call(ada, "POST", "/auth/avatars/face-1/publication-consent")).status).toBe(201);
      expect((await call(ada, "PUT", "/auth/avatars/face-1/visibility", { visibility: "public" })).status).toBe(200);
      const listed = await (await call(admin, "GET", "/auth/avatars/public")).json();
      expect(listed.avatars.map((a: { avatar_id: string }) => a.avatar_id)).toEqual(["face-1"]);
      expect((await call(ada, "PUT", "/auth/avatars/face-1/visibility", { visibility: "private" })).status).toBe(200);
      expect((await (await call(admin, "GET", "/auth/avatars/public")).json()).avatars).toEqual([]);
      const notMine = await call(admin, "POST", "/auth/avatars/face-1/publication-consent");
      expect(notMine.status).toBe(404);
      expect(await notMine.json()).toEqual(nested("avatar_not_found"));
      expect((await call(ada, "GET", "/auth/consent")).status).toBe(405);
    });

    it("assets: lists what a box archives, signs the URLs, serves them, refuses others, forgets an erased avatar", async () => {
      await boxRecords.observe({ subject: `owner:${ADA}`, avatarId: "face-2", name: "face-2.jpg", sourceKind: "photo", state: "ready" });
      const sink = new FolderSink(join(dir, "assets"));
      await sink.put(await portraitKey(ADA, "face-2"), new Uint8Array([1, 2, 3]));
      await sink.put(await clipKey(ADA, "face-2", "happy"), new Uint8Array([4, 5]));
      const res = await call(ada, "GET", "/auth/avatars/face-2/assets");
      expect(res.status).toBe(200);
      const body = (await res.json()) as { assets: { filename: string; url: string }[]; expires_in: number };
      expect(body.assets.map((a) => a.filename)).toEqual(["portrait.png", "clip-happy.mp4"]);
      const served = await fetch(body.assets[0].url);
      expect(served.status).toBe(200);
      expect([...new Uint8Array(await served.arrayBuffer())]).toEqual([1, 2, 3]);
      const tampered = new URL(body.assets[0].url);
      tampered.searchParams.set("exp", String(Number(tampered.searchParams.get("exp")) + 60));
      const refusedUrl = await fetch(tampered);
      expect(refusedUrl.status).toBe(404);
      expect(await refusedUrl.json()).toEqual(nested("asset_not_found"));
      const range = await fetch(body.assets[0].url, { headers: { range: "bytes=1-" } });
      expect(range.status).toBe(206);
      expect(range.headers.get("content-range")).toBe("bytes 1-2/3");
      expect([...new Uint8Array(await range.arrayBuffer())]).toEqual([2, 3]);
      const theirs = await call(admin, "GET", "/auth/avatars/face-2/assets");
      expect(theirs.status).toBe(404);
      expect(await theirs.json()).toEqual(nested("avatar_not_found"));
      expect((await call(ada, "POST", "/auth/avatars/face-2/assets")).status).toBe(405);

      expect((await call(ada, "DELETE", "/auth/avatars/face-2")).status).toBe(202);
      expect(((await (await call(ada, "GET", "/auth/avatars")).json()).avatars as { avatar_id: string }[]).map((a) => a.avatar_id)).toEqual(
        ["face-1"],
      );
      const gone = await call(ada, "GET", "/auth/avatars/face-2/assets");
      expect(gone.status).toBe(404);
      const erased = await fetch(body.assets[0].url);
      expect(erased.status).toBe(404);
      expect(await erased.json()).toEqual(nested("asset_not_found"));
    });

    it("portraits: draws one (sharp), serves its bytes with HEAD and 304, refuses a description that is not one", async () => {
      const created = await call(ada, "POST", "/auth/portraits", { description: "a young woman with long red hair and green eyes" });
      expect(created.status).toBe(201);
      const { portrait } = await created.json();
      expect(portrait).toMatchObject({ content_type: "image/png", generator: "embedded", width: 768, height: 768 });
      const got = await call(ada, "GET", portrait.url);
      expect(got.status).toBe(200);
      const bytes = new Uint8Array(await got.arrayBuffer());
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(portrait.sha256);
      expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
      const head = await call(ada, "HEAD", portrait.url);
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(portrait.size_bytes));
      expect((await call(ada, "GET", portrait.url, undefined, { "if-none-match": `"${portrait.sha256}"` })).status).toBe(304);
      const theirs = await call(admin, "GET", portrait.url);
      expect(theirs.status).toBe(404);
      const bad = await call(ada, "POST", "/auth/portraits", { description: 42 });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual(nested("invalid_body"));
    });

    it("voice settings: checks keys at the configured providers, saves them sealed, switches engines, refuses a rejected or hanging key", async () => {
      expect((await call(ada, "PUT", "/auth/voice/key", { provider: "elevenlabs", key: ELEVEN_KEY })).status).toBe(200);
      expect(eleven.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/user" });
      expect((await call(ada, "PUT", "/auth/voice/key", { provider: "cartesia", key: CARTESIA_KEY })).status).toBe(200);
      const chosen = await call(ada, "PUT", "/auth/voice/engine", { engine: "elevenlabs" });
      expect(chosen.status).toBe(200);
      const { voice } = await chosen.json();
      expect(voice.engine).toBe("elevenlabs");
      expect(voice.keys.map((k: { provider: string; masked: string }) => [k.provider, k.masked])).toEqual([
        ["cartesia", `${"\u2022".repeat(8)}${CARTESIA_KEY.slice(-4)}`],
        ["elevenlabs", `${"\u2022".repeat(8)}${ELEVEN_KEY.slice(-4)}`],
      ]);
      const stored = await records.execute("SELECT * FROM voice_keys");
      expect(JSON.stringify(stored.rows)).not.toContain(ELEVEN_KEY.slice(0, 12));

      const rejected = await call(ada, "PUT", "/auth/voice/key", { provider: "cartesia", key: "sk_car_wrong_key_1234" });
      expect(rejected.status).toBe(400);
      expect(await rejected.json()).toEqual(nested("voice_key_rejected"));
      eleven.options.hang = true;
      const hung = await call(ada, "PUT", "/auth/voice/key", { provider: "elevenlabs", key: "sk_another_key_that_hangs" });
      eleven.options.hang = false;
      expect(hung.status).toBe(502);
      expect(await hung.json()).toEqual(nested("voice_key_check_failed"));
      const badEngine = await call(ada, "PUT", "/auth/voice/engine", { engine: "loudspeaker" });
      expect(badEngine.status).toBe(400);
      expect(await badEngine.json()).toEqual(nested("unknown_voice_engine"));
      const settings = await (await call(ada, "GET", "/auth/voice/settings")).json();
      expect(settings.voice.keys.map((k: { last4: string }) => k.last4)).toEqual([CARTESIA_KEY.slice(-4), ELEVEN_KEY.slice(-4)]);
    });

    it("studio: pages behind sign-in, the stylesheet, and the bundled script with gzip and ETag", async () => {
      const root = await call(null, "GET", "/");
      expect([root.status, root.headers.get("location")]).toEqual([302, "/studio"]);
      const anonymous = await call(null, "GET", "/studio");
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get("location")).toMatch(/^\/studio\/sign-in/);
      const page = await call(ada, "GET", "/studio");
      expect(page.status).toBe(200);
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await page.text()).toContain("/studio/app.js");
      expect((await call(ada, "GET", "/studio/studio.css")).status).toBe(200);
      const script = await call(null, "GET", "/studio/app.js", undefined, { "accept-encoding": "gzip" });
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
      const etag = script.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]+"$/);
      const text = await script.text();
      expect(text.length).toBeGreaterThan(50_000);
      expect(text).toContain("avatarStudio");
      expect(script.headers.get("vary")).toMatch(/Accept-Encoding/i);
      // The gzip bytes as sent (fetch would decode them): the same script.
      const raw = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) =>
        httpGet(url("/studio/app.js"), { headers: { "accept-encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], bytes: Buffer.concat(chunks) }));
        }).on("error", reject),
      );
      expect(raw.encoding).toBe("gzip");
      expect(gunzipSync(raw.bytes).toString("utf8")).toBe(text);
      expect((await call(null, "GET", "/studio/app.js", undefined, { "if-none-match": etag })).status).toBe(304);
      const missing = await call(ada, "GET", "/studio/nowhere");
      expect(missing.status).toBe(404);
    });

    if (runtime === "deno")
      it("studio on Deno: a missing script is a 503 naming the build command; a rebuilt one is served at once", async () => {
        rmSync(join(dir, "studio", "app.js"));
        const res = await call(null, "GET", "/studio/app.js");
        expect(res.status).toBe(503);
        expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
        expect(await res.text()).toContain(BUILD_COMMAND);
        copyFileSync(studioScript, join(dir, "studio", "app.js"));
        expect((await call(null, "GET", "/studio/app.js")).status).toBe(200);
      });

    it("forwards box HTTP paths on the same origin, without the portal's cookie, 403 as 409", async () => {
      const res = await call(ada, "POST", "/api/echo", { hello: runtime }, { cookie: `${ada}; other=1` });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: "ok",
        via: new URL(portal.url).host,
        cookie: "other=1",
        method: "POST",
        body: JSON.stringify({ hello: runtime }),
      });
      const forbidden = await call(null, "GET", "/api/forbidden");
      expect(forbidden.status).toBe(409);
      expect(await forbidden.json()).toEqual(nested("not_yours"));
    });

    it("relays a box WebSocket: early frames, both directions, binary, and the close code", async () => {
      const socket = new WebSocket(`${portal.url.replace("http", "ws")}/api/session/ws?session_token=good`);
      const frames: (string | Buffer)[] = [];
      const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
      const got = (n: number, deadline = Date.now() + 5000) =>
        new Promise<void>((resolve, reject) => {
          const check = () =>
            frames.length >= n
              ? resolve()
              : Date.now() > deadline
                ? reject(new Error(`${frames.length} of ${n} frames`))
                : setTimeout(check, 10);
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

    it("stops on SIGTERM with exit status 0", async () => {
      expect(await portal.stop()).toBe(0);
    });
  });
}

describe("the deno entry's start contract", () => {
  it("refuses PORTAL_GPU_DRIVER=local at start (exit 1), naming the Bun entry and the alternatives", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portal-deno-local-"));
    try {
      const started = startPortalProcess(
        { PORTAL_DB_URL: pathToFileURL(join(dir, "portal.db")).href, PORTAL_DATA_DIR: dir, PORTAL_GPU_DRIVER: "local" },
        { runtime: "deno" },
      );
      const err = await started.then(
        () => null,
        (e: Error) => e.message,
      );
      expect(err).toMatch(/^portal exited 1:/);
      expect(err).toContain("PORTAL_GPU_DRIVER=local");
      expect(err).toContain("bun portal/main.ts");
      expect(err).toContain("PORTAL_GPU_DRIVER=ec2");
      expect(existsSync(join(dir, "portal.db"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
