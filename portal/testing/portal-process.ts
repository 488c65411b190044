// Spawns the Bun entry (`node_modules/.bin/bun portal/main.ts`) with PORTAL_PORT=0 and reads its
// listening line, for end-to-end tests.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export interface PortalProcess {
  url: string;
  child: ChildProcess;
  stderr: string[];
  stop(): Promise<number | null>;
}

export async function startPortalProcess(env: Record<string, string>): Promise<PortalProcess> {
  const child = spawn("node_modules/.bin/bun", ["portal/main.ts"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORTAL_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (l) => stderr.push(l));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line; stderr: ${stderr.join("\n")}`)), 60_000);
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line).listening);
      } catch {
        reject(new Error(`first stdout line is not the listening line: ${line}`));
      }
    });
    void exited.then((code) => (clearTimeout(timer), reject(new Error(`portal exited ${code}: ${stderr.join("\n")}`))));
  });
  return {
    url,
    child,
    stderr,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
