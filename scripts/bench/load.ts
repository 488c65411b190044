// A small closed-loop HTTP load generator: N concurrent keep-alive connections for D seconds.
// Uses `wrk` (Debian package) when installed, which loads the machine less than a JS client.
import { spawnSync } from "node:child_process";

export interface LoadResult {
  tool: string;
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
}

function wrkAvailable(): boolean {
  return spawnSync("wrk", ["--version"]).error === undefined;
}

function parseWrkLatency(out: string, pct: string): number {
  const m = new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(out);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
}

export async function load(url: string, headers: Record<string, string>, connections = 64, seconds = 10): Promise<LoadResult> {
  if (wrkAvailable()) {
    const args = ["-t2", `-c${connections}`, `-d${seconds}s`, "--latency"];
    for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}: ${v}`);
    const r = spawnSync("wrk", [...args, url], { encoding: "utf8" });
    const out = r.stdout;
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    return {
      tool: "wrk",
      requests,
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
      p50_ms: parseWrkLatency(out, "50"),
      p99_ms: parseWrkLatency(out, "99"),
      errors: non2xx,
    };
  }
  const lat: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const res = await fetch(url, { headers }).catch(() => null);
        if (res?.status !== 200) errors++;
        await res?.arrayBuffer();
        lat.push(performance.now() - t);
      }
    }),
  );
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  return { tool: "fetch", requests: lat.length, rps: lat.length / seconds, p50_ms: q(0.5), p99_ms: q(0.99), errors };
}
