// Counts a process's children by command name (to prove no ffmpeg or peer is leaked).
import { readdirSync, readFileSync } from "node:fs";

export function childrenNamed(ppid: number, name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppidOf = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppidOf === ppid && comm === name) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** `pids` oldest first, by each process's start time (field 22 of /proc/PID/stat). */
export function byStartTime(pids: number[]): number[] {
  const started = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  };
  return pids
    .map((pid) => [pid, started(pid)] as const)
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .map(([pid]) => pid);
}
