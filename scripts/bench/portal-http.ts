// Benchmark: GET /auth/keys on the real portal (Bun entry) with a session cookie and with a Bearer
// ID token (verified against a loopback JWKS), 64 connections, 10 s each. The portal is pinned to
// one core (CPU 0) and the load tool to the other, and the portal's own CPU time is read from /proc.
// Run: node_modules/.bin/bun scripts/bench/portal-http.ts   (BENCH_SECONDS, BENCH_CONNECTIONS)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { FakeIdentityProvider } from "../../portal/testing/fake-idp.ts";
import { startPortalProcess } from "../../portal/testing/portal-process.ts";
import { load } from "./load.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const pinned = cpus().length >= 2 && spawnSync("taskset", ["-V"]).error === undefined;
// The load tool (a child of this script) inherits this process's affinity: CPU 1.
if (pinned) spawnSync("taskset", ["-a", "-p", "-c", "1", String(process.pid)], { stdio: "ignore" });

const dir = mkdtempSync(join(tmpdir(), "bench-portal-"));
const idp = await FakeIdentityProvider.start();
const portal = await startPortalProcess({
  PORTAL_DB_URL: pathToFileURL(join(dir, "portal.db")).href,
  PORTAL_DATA_DIR: dir,
  PORTAL_MAIL_OUTBOX: join(dir, "outbox"),
  PORTAL_GPU_DRIVER: "none",
  PORTAL_OIDC_ISSUER: idp.issuer,
  PORTAL_OIDC_AUDIENCE: idp.audience,
  PORTAL_OIDC_JWKS_URL: idp.jwksUrl,
});
const pid = portal.child.pid!;
if (pinned) spawnSync("taskset", ["-a", "-p", "-c", "0", String(pid)], { stdio: "ignore" });

/** The portal process's user+system CPU seconds so far. */
function cpuSeconds(): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

try {
  // Sign in through the real magic-link flow (outbox folder) to get a cookie.
  const email = "bench@example.com";
  await fetch(`${portal.url}/auth/request-link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  const mail = readFileSync(join(dir, "outbox", readdirSync(join(dir, "outbox"))[0]), "utf8");
  const link = /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(mail)![1];
  const cookie = (await fetch(link, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0];
  const bearer = `Bearer ${await idp.mint(email, { expiresIn: 3600 })}`;
  // The load tool runs synchronously in this process, which also serves the JWKS: let the portal
  // fetch and cache the key set first (jose keeps it for ten minutes).
  const probe = await fetch(`${portal.url}/auth/keys`, { headers: { authorization: bearer } });
  if (probe.status !== 200) throw new Error(`the ID token was refused: ${probe.status}`);
  // A developer with a few keys, as the list would really hold.
  for (let i = 0; i < 5; i++) {
    await fetch(`${portal.url}/auth/keys`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: `key ${i}` }),
    });
  }

  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model}; portal ${portal.url} (pid ${pid}${pinned ? ", pinned to CPU 0; load on CPU 1" : ", not pinned"})`,
  );
  for (const [scenario, headers] of [
    ["cookie", { cookie }],
    ["bearer_id_token", { authorization: bearer }],
  ] as const) {
    await load(`${portal.url}/auth/keys`, headers, 8, 1); // warm-up
    const cpu0 = cpuSeconds();
    const r = await load(`${portal.url}/auth/keys`, headers, connections, seconds);
    const cpu = cpuSeconds() - cpu0;
    console.log(
      JSON.stringify({
        route: "GET /auth/keys",
        scenario,
        connections,
        seconds,
        ...r,
        rps: Math.round(r.rps),
        p50_ms: +r.p50_ms.toFixed(2),
        p99_ms: +r.p99_ms.toFixed(2),
        portal_cpu_seconds: +cpu.toFixed(2),
        rps_per_portal_cpu_second: Math.round(r.requests / Math.max(cpu, 0.01)),
      }),
    );
  }
} finally {
  await portal.stop();
  await idp.close();
  rmSync(dir, { recursive: true, force: true });
}
