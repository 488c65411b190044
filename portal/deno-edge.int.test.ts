// The portal configured as it runs at the edge, through both entries: a hosted libSQL over HTTP
// (a Hrana server with a bearer token, PORTAL_DB_URL=libsql://...), PORTAL_SECRET, sign-in mail over
// SMTP, the `ec2` GPU driver against a local EC2 Query API, media in S3 (a local S3 server). The
// Deno entry runs with the `edge` permissions (portal/deno/command.ts): no --allow-ffi (no native
// code: no libSQL binding, no sharp), no --allow-write, no --allow-run; so this also proves that
// nothing the entry loads for that configuration needs them. The same sequences and refusals are
// asserted against the Bun entry. One process per entry for the file.
import { createClient, type Client } from "@libsql/client";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SharedRecords } from "../box/avatars/own/shared-records.ts";
import { portraitKey } from "../shared/asset-layout/asset-keys.ts";
import { startFakeLibsqlServer, type FakeLibsqlServer } from "./deno/testing/fake-libsql-server.ts";
import { DEPLOYMENT_TAG_KEY } from "./gpu/drivers/ec2.ts";
import { S3AssetStore } from "./storage/s3-store.ts";
import { LOCAL_S3_CREDENTIALS, startLocalS3, type LocalS3 } from "./storage/testing/local-s3.ts";
import { FakeEc2Server } from "./testing/fake-ec2.ts";
import { FakeSmtpServer } from "./testing/fake-smtp.ts";
import { startPortalProcess, type PortalProcess, type PortalRuntime } from "./testing/portal-process.ts";

const BUCKET = "edge-media";
const ADMIN = "admin@example.com";
const OWNER = "owner@example.com";
const ADA = "ada@example.com";
const SECRET = "edge-test-secret-0123456789abcdef0123456789abcdef";

let ec2: FakeEc2Server;
let smtp: FakeSmtpServer;
let s3: LocalS3;
let media: S3AssetStore;
const scratch = mkdtempSync(join(tmpdir(), "portal-edge-"));
let studioScript: string;

beforeAll(async () => {
  ec2 = await FakeEc2Server.start();
  smtp = await FakeSmtpServer.start();
  s3 = await startLocalS3([BUCKET]);
  media = new S3AssetStore({ bucket: BUCKET, endpoint: s3.endpoint, region: "us-east-1", credentials: LOCAL_S3_CREDENTIALS });
  studioScript = join(scratch, "studio", "app.js");
  const built = spawnSync("node_modules/.bin/bun", ["portal/deno/build-studio.ts", studioScript], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`the studio script did not build: ${built.stderr}`);
});
afterAll(async () => {
  await ec2?.close();
  await smtp?.close();
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const json = { "content-type": "application/json" };
const nested = (code: string) => ({ error: { code, message: expect.any(String) } });

for (const runtime of ["bun", "deno"] as PortalRuntime[]) {
  describe(`the ${runtime} entry at the edge (hosted libSQL, SMTP, ec2, S3)`, () => {
    let hosted: FakeLibsqlServer;
    let db: Client;
    let dataDir: string;
    let portal: PortalProcess;
    const cookies: Record<string, string> = {};
    const call = (who: string | null, method: string, path: string, body?: unknown) =>
      fetch(`${portal.url}${path}`, {
        method,
        headers: { ...(who ? { cookie: cookies[who] } : {}), ...(body === undefined ? {} : json) },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        redirect: "manual",
      });
    const gpu = (who: string, verb: string, body?: unknown) =>
      call(who, verb === "status" ? "GET" : "POST", `/auth/gpu/${verb}`, body ?? (verb === "status" ? undefined : {}));
    const actions = () => ec2.calls.map((c) => c.action).filter((a) => a !== "DescribeInstances" && a !== "DescribeInstanceStatus");

    async function signIn(email: string): Promise<string> {
      const before = smtp.received.length;
      expect((await call(null, "POST", "/auth/request-link", { email })).status).toBe(200);
      for (let i = 0; i < 100 && !smtp.received.slice(before).some((m) => m.to.includes(email)); i++)
        await new Promise((r) => setTimeout(r, 50));
      const mail = smtp.received.slice(before).find((m) => m.to.includes(email));
      if (!mail) throw new Error(`no mail for ${email} reached the SMTP server`);
      const text = mail.data.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
      const link = /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(text)![1];
      const landed = await fetch(link, { redirect: "manual" });
      expect(landed.status).toBe(303);
      return landed.headers.get("set-cookie")!.split(";")[0];
    }

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), `portal-edge-${runtime}-`));
      hosted = await startFakeLibsqlServer(join(scratch, `${runtime}-hosted.db`));
      portal = await startPortalProcess(
        {
          PORTAL_DB_URL: `${hosted.url.replace("http://", "libsql://")}?tls=0`,
          PORTAL_DB_AUTH_TOKEN: hosted.authToken,
          PORTAL_SECRET: SECRET,
          PORTAL_DATA_DIR: dataDir,
          PORTAL_SMTP_URL: smtp.url,
          PORTAL_MAIL_FROM: "Avatar portal <portal@example.com>",
          PORTAL_ADMIN_EMAILS: ADMIN,
          PORTAL_OWNER_EMAILS: OWNER,
          PORTAL_GPU_DRIVER: "ec2",
          PORTAL_GPU_REGIONS: JSON.stringify([
            { id: "ap-southeast-2", label: "Sydney", data_resident: true, types: ["g5.xlarge", "g6.xlarge"], owner_types: ["g6e.2xlarge"] },
            { id: "us-east-1", label: "N. Virginia", can_serve: false, smoke_test: true, types: ["g5.xlarge"] },
          ]),
          PORTAL_EC2_IMAGE_IDS: JSON.stringify({ "ap-southeast-2": "ami-0123456789abcdef0", "us-east-1": "ami-0fedcba9876543210" }),
          PORTAL_EC2_DEPLOYMENT_TAG: `edge-${runtime}`,
          PORTAL_EC2_ENDPOINT: ec2.endpoint,
          PORTAL_STORAGE: "s3",
          PORTAL_S3_BUCKET: BUCKET,
          PORTAL_S3_REGION: "us-east-1",
          PORTAL_S3_ENDPOINT: s3.endpoint,
          PORTAL_STUDIO_SCRIPT: studioScript,
          AWS_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
          AWS_EC2_METADATA_DISABLED: "true",
        },
        { runtime, denoProfile: "edge" },
      );
      db = createClient({ url: hosted.url, authToken: hosted.authToken });
      for (const who of [ADMIN, OWNER, ADA]) cookies[who] = await signIn(who);
    });
    afterAll(async () => {
      db?.close();
      await portal?.stop();
      await hosted?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    beforeEach(() => {
      for (const i of ec2.instances.values()) i.state = "terminated";
      ec2.calls.length = 0;
    });

    it("keeps everything in the hosted database (token sent, nothing written locally) and mails links over SMTP", async () => {
      if (runtime === "deno") {
        const args = readFileSync(`/proc/${portal.child.pid}/cmdline`, "utf8").split("\0");
        expect(args).toContain("portal/deno.ts");
        for (const flag of ["--allow-ffi", "--allow-write", "--allow-run", "--allow-sys", "--allow-all", "-A"])
          expect(args).not.toContain(flag);
      }
      expect(hosted.stats.unauthorized).toBe(0);
      expect(hosted.stats.pipelines).toBeGreaterThan(10);
      const sessions = await db.execute("SELECT email FROM portal_sessions ORDER BY email");
      expect(sessions.rows.map((r) => r.email)).toEqual([ADA, ADMIN, OWNER]);
      expect(readdirSync(dataDir)).toEqual([]);
      expect(smtp.received.some((m) => m.from.includes("portal@example.com") && m.to.includes(ADA))).toBe(true);
      const created = await call(ADA, "POST", "/auth/keys", { name: "edge key" });
      expect(created.status).toBe(201);
      const { key } = await created.json();
      const rows = await db.execute({ sql: "SELECT owner, name FROM credentials WHERE id = ?", args: [key.id] });
      expect(rows.rows.map((r) => [r.owner, r.name])).toEqual([[ADA, "edge key"]]);
      const credential = await call(ADA, "POST", "/auth/session/credential");
      expect(credential.status).toBe(201);
      expect((await credential.json()).credential.scope).toBe("full");
    });

    it("refuses bad requests the same way on a hosted database", async () => {
      const bad = await call(ADA, "POST", "/auth/keys", "{nope");
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual(nested("invalid_name"));
      const consent = await call(ADA, "POST", "/auth/consent", { sha256: "nope" });
      expect(consent.status).toBe(400);
      expect(await consent.json()).toEqual(nested("invalid_sha256"));
      const unknown = await call(ADA, "DELETE", "/auth/keys/nope");
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual(nested("key_not_found"));
      const anonymous = await call(null, "GET", "/auth/avatars");
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({ code: "missing_api_key", message: expect.any(String) });
      const notFound = await call(ADA, "GET", "/nowhere");
      expect(notFound.status).toBe(404);
      expect(await notFound.json()).toEqual(nested("not_found"));
    });

    it("ec2: reports the regions, launches, stops, starts and terminates one tagged instance", async () => {
      const status = await gpu(ADMIN, "status");
      expect(status.status).toBe(200);
      const body = await status.json();
      expect(body.gpu).toMatchObject({ state: "none", can_launch: true, max_runtime_seconds: 7200 });
      expect(body.regions.map((r: { id: string }) => r.id)).toEqual(["ap-southeast-2", "us-east-1"]);
      expect((await (await gpu(OWNER, "status")).json()).owner).toBe(true);

      const launched = await gpu(ADMIN, "launch");
      expect(launched.status).toBe(201);
      const lb = await launched.json();
      expect(lb.gpu).toMatchObject({ state: "pending", instance_type: "g5.xlarge", region: "ap-southeast-2" });
      const run = ec2.calls.find((c) => c.action === "RunInstances")!;
      expect([run.region, run.params.get("ImageId"), run.params.get("InstanceType")]).toEqual([
        "ap-southeast-2",
        "ami-0123456789abcdef0",
        "g5.xlarge",
      ]);
      expect(run.params.get("TagSpecification.1.Tag.1.Key")).toBe(DEPLOYMENT_TAG_KEY);
      ec2.settle();
      expect((await (await gpu(ADMIN, "status")).json()).gpu).toMatchObject({
        instance_id: lb.gpu.instance_id,
        state: "running",
        public_ip: expect.stringMatching(/^203\.0\.113\./),
      });
      const again = await gpu(ADMIN, "launch");
      expect(again.status).toBe(409);
      const running = await gpu(ADMIN, "start");
      expect(running.status).toBe(409);
      expect(await running.json()).toEqual(nested("gpu_already_running"));
      expect((await (await gpu(ADMIN, "stop")).json()).gpu.state).toBe("stopping");
      ec2.settle();
      expect((await (await gpu(ADMIN, "start")).json()).gpu.state).toBe("pending");
      expect((await (await gpu(ADMIN, "terminate")).json()).gpu.state).toBe("shutting-down");
      ec2.settle();
      expect((await (await gpu(ADMIN, "status")).json()).gpu).toMatchObject({ state: "none", can_launch: true });
      expect(actions()).toEqual(["RunInstances", "StopInstances", "StartInstances", "TerminateInstances"]);
    });

    it("ec2: the same refusals (tier, type, region, EC2's own errors, nothing to start, GET verbs)", async () => {
      const refusals: [string, unknown, number, string][] = [
        [ADA, {}, 409, "gpu_admin_only"],
        [ADMIN, { instance_type: "g6e.2xlarge" }, 403, "gpu_type_owner_only"],
        [ADMIN, { instance_type: "p5.48xlarge" }, 400, "gpu_type_not_allowed"],
        [ADMIN, { region: "eu-west-1" }, 409, "gpu_region_not_allowed"],
        [ADMIN, { region: "us-east-1" }, 409, "gpu_region_not_allowed"],
      ];
      for (const [who, body, status, code] of refusals) {
        const res = await gpu(who, "launch", body);
        expect(res.status, code).toBe(status);
        expect(await res.json()).toEqual(nested(code));
      }
      for (const [ec2Code, status, code] of [
        ["InsufficientInstanceCapacity", 503, "gpu_no_capacity"],
        ["VcpuLimitExceeded", 503, "gpu_quota_exceeded"],
        ["UnauthorizedOperation", 502, "gpu_unavailable"],
      ] as const) {
        ec2.failNext.set("RunInstances", { code: ec2Code, status: 400 });
        const res = await gpu(ADMIN, "launch", { instance_type: "g6.xlarge" });
        expect(res.status, code).toBe(status);
        expect(await res.json()).toEqual(nested(code));
      }
      const nothing = await gpu(ADMIN, "start");
      expect(nothing.status).toBe(409);
      expect(await nothing.json()).toEqual(nested("gpu_not_startable"));
      const get = await call(ADMIN, "GET", "/auth/gpu/launch");
      expect(get.status).toBe(405);
      expect(await get.json()).toEqual(nested("method_not_allowed"));
      expect(actions()).toEqual(["RunInstances", "RunInstances", "RunInstances"]);
      expect([...ec2.instances.values()].filter((i) => i.state !== "terminated")).toEqual([]);
    });

    it("media in S3: lists what a box archived, presigns URLs that fetch the bytes, erases with the avatar", async () => {
      const box = new SharedRecords(db, true, false, { region: "ap-southeast-2", volume: "vol-edge" });
      await box.observe({ subject: `owner:${ADA}`, avatarId: `edge-${runtime}`, name: "edge.jpg", sourceKind: "photo", state: "ready" });
      const key = await portraitKey(ADA, `edge-${runtime}`);
      await media.put(key, new Uint8Array([9, 8, 7]), "image/png");
      const listed = await call(ADA, "GET", `/auth/avatars/edge-${runtime}/assets`);
      expect(listed.status).toBe(200);
      const { assets } = (await listed.json()) as { assets: { filename: string; url: string }[] };
      expect(assets.map((a) => a.filename)).toEqual(["portrait.png"]);
      expect(new URL(assets[0].url).origin).toBe(s3.endpoint);
      const got = await fetch(assets[0].url);
      expect(got.status).toBe(200);
      expect([...new Uint8Array(await got.arrayBuffer())]).toEqual([9, 8, 7]);
      const theirs = await call(ADMIN, "GET", `/auth/avatars/edge-${runtime}/assets`);
      expect(theirs.status).toBe(404);
      expect(await theirs.json()).toEqual(nested("avatar_not_found"));
      expect((await call(ADA, "DELETE", `/auth/avatars/edge-${runtime}`)).status).toBe(202);
      expect(await media.list(key)).toEqual([]);
      expect((await call(ADA, "GET", `/auth/avatars/edge-${runtime}/assets`)).status).toBe(404);
      expect(s3.refused).toEqual([]);
    });

    it("consent and visibility on the hosted database (the ledger's default home)", async () => {
      const box = new SharedRecords(db, true, false, { region: "ap-southeast-2", volume: "vol-edge" });
      await box.observe({ subject: `owner:${ADA}`, avatarId: "shown", name: "shown.jpg", sourceKind: "photo", state: "ready" });
      const early = await call(ADA, "PUT", "/auth/avatars/shown/visibility", { visibility: "public" });
      expect(early.status).toBe(409);
      expect(await early.json()).toEqual(nested("publication_consent_required"));
      expect((await call(ADA, "POST", "/auth/avatars/shown/publication-consent")).status).toBe(201);
      expect((await call(ADA, "PUT", "/auth/avatars/shown/visibility", { visibility: "public" })).status).toBe(200);
      const consents = await db.execute("SELECT avatar_id FROM publication_consents");
      expect(consents.rows.map((r) => r.avatar_id)).toEqual(["shown"]);
      const listed = await (await call(ADMIN, "GET", "/auth/avatars/public")).json();
      expect(listed.avatars.map((a: { avatar_id: string }) => a.avatar_id)).toEqual(["shown"]);
    });

    it("serves the studio's prebuilt script and pages", async () => {
      const script = await call(null, "GET", "/studio/app.js");
      expect(script.status).toBe(200);
      expect(await script.text()).toContain("avatarStudio");
      expect((await call(ADA, "GET", "/studio/library")).status).toBe(200);
    });

    if (runtime === "deno") {
      it("portraits at the edge: sharp cannot load without native code, so drawing answers 503 and the log says why", async () => {
        const res = await call(ADA, "POST", "/auth/portraits", { description: "a calm man with a moustache" });
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual(nested("portrait_generator_unavailable"));
        expect(portal.stderr.join("\n")).toContain("portraits are not drawn on this host");
      });
    } else {
      it("portraits on Bun: drawn with sharp", async () => {
        const res = await call(ADA, "POST", "/auth/portraits", { description: "a calm man with a moustache" });
        expect(res.status).toBe(201);
        expect((await res.json()).portrait.generator).toBe("embedded");
      });
    }
  });
}
