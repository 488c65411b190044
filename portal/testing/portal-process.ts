// Spawns a portal entry with PORTAL_PORT=0 and reads its listening line, for end-to-end tests: the
// Bun entry (`node_modules/.bin/bun portal/main.ts`, the default) or the Deno entry
// (`node_modules/.bin/deno run ... portal/deno.ts`, portal/deno/command.ts) with the `local`
// permissions or the `edge` ones (no native code, no writes, no subprocess).
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { DENO_BIN, DENO_ENV, denoPortalArgs, type DenoProfile } from "../deno/command.ts";

export type PortalRuntime = "bun" | "deno";

export interface PortalProcessOptions {
  /** Which entry: `bun` (portal/main.ts, the default) or `deno` (portal/deno.ts). */
  runtime?: PortalRuntime;
  /** Deno's permission profile (portal/deno/command.ts); default `local`. */
  denoProfile?: DenoProfile;
}

export interface PortalProcess {
  url: string;
  child: ChildProcess;
  stderr: string[];
  runtime: PortalRuntime;
  stop(): Promise<number | null>;
}

/** The command line of an entry, from the repository root. */
export function portalCommand(opts: PortalProcessOptions = {}): { command: string; args: string[]; env: Record<string, string> } {
  if ((opts.runtime ?? "bun") === "deno")
    return { command: DENO_BIN, args: denoPortalArgs(opts.denoProfile ?? "local"), env: { ...DENO_ENV } };
  return { command: "node_modules/.bin/bun", args: ["portal/main.ts"], env: {} };
}

export async function startPortalProcess(env: Record<string, string>, opts: PortalProcessOptions = {}): Promise<PortalProcess> {
  const runtime = opts.runtime ?? "bun";
  const cmd = portalCommand(opts);
  const child = spawn(cmd.command, cmd.args, {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORTAL_PORT: "0", ...cmd.env, ...env },
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
    runtime,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
