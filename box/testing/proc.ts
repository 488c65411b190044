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
