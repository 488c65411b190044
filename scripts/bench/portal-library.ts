// Benchmark (prints figures; never asserts) of the portal's library reads (issue 11 item 9), on the
// real portal (Bun entry, as `npm start` runs it) pinned to one core (CPU 0), wrk on the other:
//   1. GET /auth/avatars for a person owning 10 of the 1,000 avatars in the library (100 owners,
//      rows written by a box's own SharedRecords into the shared database). Goal >= 5,000 req/s.
//   2. GET /auth/avatars/{id}/assets for one of theirs: a portrait and three clips archived the
//      way a box archives them (FolderSink into the file store). Goal >= 5,000 req/s.
//   3. GET /auth/avatars for a person owning 1,000 avatars themselves (the worst case; no goal).
// Each: 64 connections, BENCH_SECONDS (10) after a 1 s warm-up; the portal's CPU is read from /proc.
// Run: node_modules/.bin/bun scripts/bench/portal-library.ts   (BENCH_SECONDS, BENCH_CONNECTIONS)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createClient } from "@libsql/client";
import { SharedRecords } from "../../box/avatars/own/shared-records.ts";
import { FolderSink } from "../../box/avatars/archive/sink.ts";
import { clipKey, portraitKey } from "../../shared/asset-layout/asset-keys.ts";
import { startPortalProcess } from "../../portal/testing/portal-process.ts";
import { figureLine, machineLineOf, sleep } from "./bench-kit.ts";
import { load } from "./load.ts";

const BENCH = "portal-library";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const OWNERS = 100;
const PER_OWNER = 10;
const GOAL_RPS = 5_000;
const CALLER = "owner-000@bench.test"; // one of the 100 owners
const COLLECTOR = "collector@bench.test"; // owns 1,000 avatars of their own (figure 3)
machineLineOf(BENCH, "start"); // before this process pins itself (nproc counts the CPUs it may use)
const pinned = cpus().length >= 2 && spawnSync("taskset", ["-V"]).error === undefined;
// The load tool (a child of this script) inherits this process's affinity: CPU 1.
if (pinned) spawnSync("taskset", ["-a", "-p", "-c", "1", String(process.pid)], { stdio: "ignore" });

const dir = mkdtempSync(join(tmpdir(), "bench-portal-library-"));
const dbUrl = pathToFileURL(join(dir, "portal.db")).href;
const portal = await startPortalProcess({
  PORTAL_DB_URL: dbUrl,
  PORTAL_DATA_DIR: dir,
  PORTAL_MAIL_OUTBOX: join(dir, "outbox"),
  PORTAL_GPU_DRIVER: "none",
});
const pid = portal.child.pid!;
if (pinned) spawnSync("taskset", ["-a", "-p", "-c", "0", String(pid)], { stdio: "ignore" });

/** The portal process's user+system CPU seconds so far. */
function cpuSeconds(): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Signs in through the real magic-link flow (outbox folder) and answers the cookie. */
async function signIn(email: string): Promise<string> {
  const outbox = join(dir, "outbox");
  const before = new Set(existsSync(outbox) ? readdirSync(outbox) : []);
  await fetch(`${portal.url}/auth/request-link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  const file = readdirSync(outbox).find((f) => !before.has(f))!;
  const link = /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(readFileSync(join(outbox, file), "utf8"))![1];
  return (await fetch(link, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0];
}

/** Observations as boxes write them: `n` photo avatars of `owner`, ready, some made public by the portal. */
async function library(records: SharedRecords, owner: string, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const avatarId = `${tag}-${String(i).padStart(4, "0")}`;
    await records.observe({
      subject: `owner:${owner}`,
      avatarId,
      name: `${avatarId}.jpg`,
      sourceKind: "photo",
      state: "ready",
      detail: "Prepared from a photo; six tones.",
    });
    ids.push(avatarId);
  }
  return ids;
}

/** One measured route: warm-up, then `seconds` of wrk; answers req/s and latency with the portal's CPU. */
async function measure(path: string, cookie: string) {
  const url = portal.url + path;
  const probe = await fetch(url, { headers: { cookie } });
  const bytes = (await probe.arrayBuffer()).byteLength;
  if (probe.status !== 200) throw new Error(`${path} answered ${probe.status}`);
  await load(url, { cookie }, 8, 1); // warm-up
  const cpu0 = cpuSeconds();
  const r = await load(url, { cookie }, connections, seconds);
  const cpu = cpuSeconds() - cpu0;
  return {
    rps: r.rps,
    detail: {
      tool: r.tool,
      connections,
      seconds,
      requests: r.requests,
      errors: r.errors,
      p50_ms: +r.p50_ms.toFixed(2),
      p99_ms: +r.p99_ms.toFixed(2),
      response_bytes: bytes,
      portal_cpu_pct: +((100 * cpu) / seconds).toFixed(1),
      // What one core of the portal serves, whatever else the (shared) machine was doing.
      rps_per_portal_cpu_second: Math.round(r.requests / Math.max(cpu, 0.01)),
    },
  };
}

try {
  const client = createClient({ url: dbUrl, timeout: 5000 });
  const records = new SharedRecords(client, true, true, { region: "local", volume: "bench-vol" });
  const t0 = performance.now();
  const owners = Array.from({ length: OWNERS }, (_, i) => `owner-${String(i).padStart(3, "0")}@bench.test`);
  let mine: string[] = [];
  for (const [i, owner] of owners.entries()) {
    const ids = await library(records, owner, PER_OWNER, `face-${String(i).padStart(3, "0")}`);
    if (owner === CALLER) mine = ids;
  }
  // A few published avatars (the portal's write), so the rows are not all alike.
  await client.execute("UPDATE avatar_observations SET visibility = 'public' WHERE avatar_id LIKE '%-0003'");
  const measured = mine[0];
  const sink = new FolderSink(join(dir, "assets"));
  await sink.put(await portraitKey(CALLER, measured), new Uint8Array(48_000).fill(1));
  for (const tone of ["neutral", "happy", "serious"] as const)
    await sink.put(await clipKey(CALLER, measured, tone), new Uint8Array(400_000).fill(2));
  const seededMs = Math.round(performance.now() - t0);
  const cookie = await signIn(CALLER);

  console.log(
    JSON.stringify({
      bench: BENCH,
      figure: "setup",
      portal: portal.url,
      portal_pid: pid,
      pinned: pinned ? "portal CPU 0, wrk CPU 1" : "not pinned",
      library_avatars: OWNERS * PER_OWNER,
      owners: OWNERS,
      caller_avatars: mine.length,
      seed_ms: seededMs,
    }),
  );

  const list = await measure("/auth/avatars", cookie);
  figureLine(BENCH, "list_10_of_1000", list.rps, "req/s", `>= ${GOAL_RPS}`, list.rps >= GOAL_RPS, {
    route: "GET /auth/avatars",
    ...list.detail,
  });
  const assets = await measure(`/auth/avatars/${measured}/assets`, cookie);
  figureLine(BENCH, "assets_portrait_and_3_clips", assets.rps, "req/s", `>= ${GOAL_RPS}`, assets.rps >= GOAL_RPS, {
    route: "GET /auth/avatars/{id}/assets",
    ...assets.detail,
  });

  // The worst case: one person owning 1,000 avatars (the library then holds 2,000 rows).
  await library(records, COLLECTOR, OWNERS * PER_OWNER, "mine");
  const collector = await signIn(COLLECTOR);
  await sleep(100);
  const all = await measure("/auth/avatars", collector);
  figureLine(BENCH, "list_1000_of_2000", all.rps, "req/s", null, null, {
    route: "GET /auth/avatars",
    note: "caller owns 1,000 avatars",
    ...all.detail,
  });
  records.close();
  machineLineOf(BENCH, "end");
} catch (err) {
  console.error(`bench failed: ${(err as Error).stack ?? err}`);
  console.error(`portal stderr (tail):\n${portal.stderr.slice(-40).join("\n")}`);
  process.exitCode = 1;
} finally {
  await portal.stop();
  rmSync(dir, { recursive: true, force: true });
}
