// Process inspection for tests, from /proc (Linux).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Live (not zombie) processes whose parent is `ppid`, optionally only those named `name`. */
export function childPids(ppid: number, name?: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && stat.ppid === ppid && stat.state !== "Z" && (!name || stat.comm === name)) out.push(Number(entry));
  }
  return out;
}

/** True while `pid` exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== null && stat.state !== "Z";
}

function readStat(pid: number): { comm: string; state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")"); // comm may contain spaces and parentheses
    const [state, ppid] = text.slice(close + 2).split(" ");
    return { comm: text.slice(text.indexOf("(") + 1, close), state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

export async function waitFor(probe: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Local addresses ("0100007F:A1B2") of the UDP sockets this process holds open. */
export function openUdpSockets(): string[] {
  const byInode = new Map<string, string>();
  for (const file of ["/proc/net/udp", "/proc/net/udp6"]) {
    for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9) byInode.set(cols[9], cols[1]);
    }
  }
  const out: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const inode = /socket:\[(\d+)\]/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1];
      if (inode && byInode.has(inode)) out.push(byInode.get(inode)!);
    } catch {
      // closed while listing
    }
  }
  return out;
}
