// Implements: GET /api/stats — cpu figures, GPUs from nvidia-smi when present, shutdown countdown.
import { cpus } from "node:os";
import { execFile } from "node:child_process";

export interface GpuRow {
  name: string;
  memory_used_mb: number;
  utilization: number;
}

function cpuTimes() {
  let idle = 0;
  let total = 0;
  for (const c of cpus()) {
    const t = c.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

export class StatsService {
  private last = cpuTimes();
  private lastAt = Date.now();
  private lastPercent = 0;

  constructor(private readonly options: { maxRuntimeSeconds: number | null; startedAt: number; nvidiaSmi?: string }) {}

  /** System-wide CPU use since the previous call (sampled over ≥100 ms). */
  async cpuPercent(): Promise<number> {
    if (Date.now() - this.lastAt < 100) await new Promise((r) => setTimeout(r, 100));
    const now = cpuTimes();
    const dTotal = now.total - this.last.total;
    const dIdle = now.idle - this.last.idle;
    if (dTotal > 0) this.lastPercent = Math.round(1000 * (1 - dIdle / dTotal)) / 10;
    this.last = now;
    this.lastAt = Date.now();
    return this.lastPercent;
  }

  gpus(): Promise<GpuRow[]> {
    const bin = this.options.nvidiaSmi ?? "nvidia-smi";
    return new Promise((resolve) => {
      execFile(bin, ["--query-gpu=name,memory.used,utilization.gpu", "--format=csv,noheader,nounits"], { timeout: 3000 }, (err, stdout) => {
        if (err) return resolve([]);
        resolve(parseNvidiaSmi(stdout));
      });
    });
  }

  shutdownMinutes(nowMs = Date.now()): number | null {
    if (!this.options.maxRuntimeSeconds) return null;
    const left = this.options.maxRuntimeSeconds - (nowMs - this.options.startedAt) / 1000;
    return Math.max(0, Math.ceil(left / 60));
  }

  async snapshot() {
    const [cpu_percent, gpus] = await Promise.all([this.cpuPercent(), this.gpus()]);
    return { shutdown_minutes: this.shutdownMinutes(), cpu_percent, cpu_cores: cpus().length, gpus };
  }
}

export function parseNvidiaSmi(csv: string): GpuRow[] {
  return csv
    .split("\n")
    .map((l) => l.split(",").map((s) => s.trim()))
    .filter((p) => p.length >= 3 && p[0])
    .map(([name, mem, util]) => ({ name, memory_used_mb: Number(mem) || 0, utilization: Number(util) || 0 }));
}
