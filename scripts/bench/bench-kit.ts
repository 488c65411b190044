// Shared bits of the live and chat benchmarks (scripts, not tests): percentiles, one JSON line
// per figure, the machine and its load, and CPU time of a process tree read from /proc.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { NEUTRAL_FRAME, type FrameParams } from "../../box/render/frame-params.ts";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Nearest-rank percentile (p in 0..100) of the finite values; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  const xs = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  return xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
}

const round = (x: number, digits = 2) => (Number.isFinite(x) ? +x.toFixed(digits) : null);

/** `{n, p50, p95, p99, min, max}` in ms, the way every latency figure is printed. */
export function summary(values: number[], ps: number[] = [50, 95]): Record<string, number | null> {
  const finite = values.filter(Number.isFinite);
  const out: Record<string, number | null> = { n: finite.length, missed: values.length - finite.length };
  for (const p of ps) out[`p${p}_ms`] = round(percentile(finite, p));
  out.min_ms = round(Math.min(...finite));
  out.max_ms = round(Math.max(...finite));
  return out;
}

export function emit(figure: string, fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ figure, ...fields }));
}

/** The machine line: CPU model and count, and the load average (the machine may be shared). */
export function machine(extra: Record<string, unknown> = {}): void {
  const c = cpus();
  emit("machine", {
    cpu: c[0]?.model,
    cores: c.length,
    loadavg: loadavg().map((x) => round(x)),
    runtime: process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`,
    ...extra,
  });
}

type Stat = { comm: string; ppid: number; ticks: number; reapedTicks: number };

function readStat(pid: number): Stat | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    // After the comm: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    return {
      comm: s.slice(s.indexOf("(") + 1, s.lastIndexOf(")")),
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]),
      reapedTicks: Number(f[13]) + Number(f[14]),
    };
  } catch {
    return null;
  }
}

/** Every live descendant of `root` with its stat. */
function descendants(root: number): Map<number, Stat> {
  const all = new Map<number, Stat>();
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    const st = readStat(Number(e));
    if (st) all.set(Number(e), st);
  }
  const out = new Map<number, Stat>();
  const frontier = [root];
  while (frontier.length) {
    const parent = frontier.pop()!;
    for (const [pid, st] of all) if (st.ppid === parent && !out.has(pid)) out.set(pid, st), frontier.push(pid);
  }
  return out;
}

export type CpuSnapshot = { at: number; box: number; reaped: number; children: Map<number, Stat> };

export function cpuSnapshot(boxPid: number): CpuSnapshot {
  const own = readStat(boxPid);
  return { at: performance.now(), box: own?.ticks ?? NaN, reaped: own?.reapedTicks ?? NaN, children: descendants(boxPid) };
}

/**
 * CPU between two snapshots as % of one core: the box process (all its threads), its ffmpeg
 * children, other live children, and children that exited and were reaped in between.
 */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot): Record<string, number | null> {
  const seconds = (b.at - a.at) / 1000;
  const pct = (ticks: number) => round((100 * ticks) / TICKS_PER_SECOND / seconds, 1);
  let ffmpeg = 0;
  let other = 0;
  let ffmpegCount = 0;
  for (const [pid, st] of b.children) {
    const before = a.children.get(pid)?.ticks ?? 0; // a child born in between counts from zero
    const used = st.ticks + st.reapedTicks - before - (a.children.get(pid)?.reapedTicks ?? 0);
    if (st.comm === "ffmpeg") (ffmpeg += used), ffmpegCount++;
    else other += used;
  }
  const box = b.box - a.box;
  const reaped = b.reaped - a.reaped;
  return {
    seconds: round(seconds, 2),
    box_pct: pct(box),
    ffmpeg_pct: pct(ffmpeg),
    ffmpeg_processes: ffmpegCount,
    other_children_pct: pct(other),
    reaped_children_pct: pct(reaped),
    total_pct: pct(box + ffmpeg + other + reaped),
  };
}

/** One figure line `{bench, figure, value, unit, goal, met, ...}`: a goal is compared, never asserted. */
export function figureLine(
  bench: string,
  name: string,
  value: number,
  unit: string,
  goal: string | null,
  met: boolean | null,
  extra: Record<string, unknown> = {},
): void {
  const digits = unit === "req/s" ? 0 : unit === "ms" ? 2 : 1;
  console.log(JSON.stringify({ bench, figure: name, value: round(value, digits), unit, goal, met, ...extra }));
}

// Read once, at the first machine line: a bench that pins itself to one CPU afterwards would see 1.
let nproc: number | undefined;

function nprocNow(): number {
  try {
    return Number(execFileSync("nproc", { encoding: "utf8" }).trim());
  } catch {
    return cpus().length;
  }
}

/** The machine line of a `figureLine` bench: `nproc`, the CPU model from /proc/cpuinfo, the load average. */
export function machineLineOf(bench: string, at: string, extra: Record<string, unknown> = {}): void {
  nproc ??= nprocNow();
  const model = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model;
  const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`;
  console.log(
    JSON.stringify({ bench, figure: "machine", at, nproc, cpu: model, loadavg: loadavg().map((x) => round(x)), runtime, ...extra }),
  );
}

/** A talking, blinking, moving face: every parameter changes every frame (idle-animator ranges). */
export function talkingFrame(i: number): FrameParams {
  const t = i / 25;
  return {
    ...NEUTRAL_FRAME,
    open: Math.max(0, Math.sin(t * 9)) * 0.8,
    wide: Math.max(0, Math.sin(t * 5)) * 0.4,
    round: Math.max(0, Math.cos(t * 4)) * 0.3,
    smile: 0.3 * Math.sin(t * 0.7),
    blink: i % 90 < 4 ? 1 : 0,
    brow: 0.3 * Math.sin(t * 1.3),
    headX: 3 * Math.sin(t * 0.9),
    headY: 2 * Math.sin(t * 1.1),
    headRoll: 0.03 * Math.sin(t * 0.6),
    breathe: 0.5 + 0.5 * Math.sin(t * 1.6),
  };
}
