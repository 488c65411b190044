// Implements: docs/architecture.md "The media path of one live session": encoder children die with the box.
// Three layers: close() kills; exit/SIGTERM/SIGINT/SIGHUP handlers kill; and when the box is
// SIGKILLed, the kernel kills each child at once (parent-death.ts; stdin EOF where setpriv is absent).
import type { ChildProcess } from "node:child_process";

const live = new Set<ChildProcess>();
let installed = false;

export function adoptChild(child: ChildProcess): void {
  install();
  live.add(child);
  child.once("exit", () => live.delete(child));
}

export function killAdopted(): void {
  for (const child of live) child.kill("SIGKILL");
}

function install(): void {
  if (installed) return;
  installed = true;
  process.once("exit", killAdopted);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    const onSignal = (): void => {
      killAdopted();
      // Our listener suppressed the default exit; restore it unless the app handles the signal.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
