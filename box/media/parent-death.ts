// Implements: docs/architecture.md "all children die with the box", also on SIGKILL when no handler runs.
// util-linux `setpriv --pdeathsig KILL` sets PR_SET_PDEATHSIG and then execs the command in
// place (same pid), so the kernel kills the child the moment the box's spawning thread dies;
// waiting for the child to notice stdin EOF left a busy ffmpeg running for seconds.
import { spawnSync } from "node:child_process";

const SETPRIV = "/usr/bin/setpriv";
let available: boolean | null = null;

/** `command args` wrapped so the child dies with this process; unwrapped where setpriv cannot. */
export function diesWithParent(command: string, args: string[]): { command: string; args: string[] } {
  available ??= probe();
  return available ? { command: SETPRIV, args: ["--pdeathsig", "KILL", "--", command, ...args] } : { command, args };
}

// Once per process: Linux only, and a setpriv new enough to know --pdeathsig (util-linux 2.33+).
function probe(): boolean {
  if (process.platform !== "linux") return false;
  return spawnSync(SETPRIV, ["--pdeathsig", "KILL", "--", "true"], { stdio: "ignore", timeout: 5_000 }).status === 0;
}
