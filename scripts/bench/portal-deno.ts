// Benchmark: GET /auth/keys with a session cookie on the Deno entry (portal/deno.ts) beside the Bun
// entry (portal/main.ts), same machine, same run, same configuration (a local `file:` database, the
// `none` GPU driver; the Deno entry with its `local` permissions, so both use their fast reads:
// bun:sqlite and node:sqlite). As scripts/bench/portal-http.ts does: each portal pinned to one core
// (CPU 0), the load tool (wrk when installed, else fetch; scripts/bench/load.ts) on the other, 64
// connections, 10 s, the portal's own CPU time read from /proc. The entries run one at a time, in
// alternating order over BENCH_ROUNDS rounds (default 2) so that a shared machine's drift hits
// both; each prints a JSON line, then the medians and the Deno/Bun requests/s ratio.
// Run: node_modules/.bin/bun scripts/bench/portal-deno.ts   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startPortalProcess, type PortalRuntime } from "../../portal/testing/portal-process.ts";
import { load } from "./load.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const pinned = cpus().length >= 2 && spawnSync("taskset", ["-V"]).error === undefined;
// The load tool (a child of this script) inherits this process's affinity: CPU 1.
if (pinned) spawnSync("taskset", ["-a", "-p", "-c", "1", String(process.pid)], { stdio: "ignore" });

interface Row {
  runtime: PortalRuntime;
  round: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  portal_cpu_seconds: number;
  rps_per_portal_cpu_second: number;
}

async function measure(runtime: PortalRuntime, round: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), `bench-portal-${runtime}-`));
  const portal = await startPortalProcess(
    {
      PORTAL_DB_URL: pathToFileURL(join(dir, "portal.db")).href,
      PORTAL_DATA_DIR: dir,
      PORTAL_MAIL_OUTBOX: join(dir, "outbox"),
      PORTAL_GPU_DRIVER: "none",
    },
    { runtime },
  );
  const pid = portal.child.pid!;
  if (pinned) spawnSync("taskset", ["-a", "-p", "-c", "0", String(pid)], { stdio: "ignore" });
  const cpuSeconds = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
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
    // A developer with a few keys, as the list would really hold.
    for (let i = 0; i < 5; i++) {
      await fetch(`${portal.url}/auth/keys`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ name: `key ${i}` }),
      });
    }
    const probe = await fetch(`${portal.url}/auth/keys`, { headers: { cookie } });
    if (probe.status !== 200 || (await probe.json()).keys.length !== 5)
      throw new Error(`${runtime}: GET /auth/keys answered ${probe.status}`);
    await load(`${portal.url}/auth/keys`, { cookie }, 8, 2); // warm-up (JIT, statement caches)
    const cpu0 = cpuSeconds();
    const r = await load(`${portal.url}/auth/keys`, { cookie }, connections, seconds);
    const cpu = cpuSeconds() - cpu0;
    const row: Row = {
      runtime,
      round,
      rps: Math.round(r.rps),
      p50_ms: +r.p50_ms.toFixed(2),
      p99_ms: +r.p99_ms.toFixed(2),
      errors: r.errors,
      portal_cpu_seconds: +cpu.toFixed(2),
      rps_per_portal_cpu_second: Math.round(r.requests / Math.max(cpu, 0.01)),
    };
    console.log(JSON.stringify({ route: "GET /auth/keys", scenario: "cookie", connections, seconds, tool: r.tool, ...row }));
    return row;
  } finally {
    await portal.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const deno = spawnSync("node_modules/.bin/deno", ["--version"], {
  encoding: "utf8",
  env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
}).stdout.split("\n")[0];
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}; bun ${Bun.version}, ${deno}; ` + `${pinned ? "portal pinned to CPU 0, load on CPU 1" : "not pinned"}`,
);
const rows: Row[] = [];
for (let round = 1; round <= rounds; round++) {
  const order: PortalRuntime[] = round % 2 === 1 ? ["bun", "deno"] : ["deno", "bun"];
  for (const runtime of order) rows.push(await measure(runtime, round));
}
const of = (runtime: PortalRuntime) => rows.filter((r) => r.runtime === runtime);
const summary = (runtime: PortalRuntime) => ({
  rps: Math.round(median(of(runtime).map((r) => r.rps))),
  p50_ms: median(of(runtime).map((r) => r.p50_ms)),
  rps_per_portal_cpu_second: Math.round(median(of(runtime).map((r) => r.rps_per_portal_cpu_second))),
});
const bun = summary("bun");
const den = summary("deno");
console.log(
  JSON.stringify({
    route: "GET /auth/keys",
    scenario: "cookie",
    rounds,
    bun,
    deno: den,
    deno_over_bun_rps: +(den.rps / bun.rps).toFixed(2),
    deno_over_bun_rps_per_cpu_second: +(den.rps_per_portal_cpu_second / bun.rps_per_portal_cpu_second).toFixed(2),
    load_average_after: loadavg().map((l) => +l.toFixed(2)),
  }),
);
