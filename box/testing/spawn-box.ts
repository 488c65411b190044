// Starts the real box (`bun box/main.ts`) on a free loopback port for integration tests.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export interface RunningBox {
  url: string;
  dataDir: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, "../..");
export const BUN = join(ROOT, "node_modules/.bin/bun");

export async function spawnBox(env: Record<string, string> = {}, opts: { dataDir?: string; keepData?: boolean } = {}): Promise<RunningBox> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "box-test-"));
  const child = spawn(BUN, ["box/main.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", BOX_PORT: "0", BOX_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  const url = await new Promise<string>((res, rej) => {
    let out = "";
    const timer = setTimeout(() => rej(new Error(`box did not start in 30 s: ${err}`)), 30_000);
    child.stdout!.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith('{"listening"'));
      if (line) {
        clearTimeout(timer);
        res(JSON.parse(line).listening);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      rej(new Error(`box exited with ${code}: ${err}`));
    });
  });
  return {
    url,
    dataDir,
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      if (!opts.keepData && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the box expecting it to refuse to start; resolves with its exit code and stderr. */
export function runBoxExpectingExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(BUN, ["box/main.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", BOX_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((res) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    // "close": after its stderr is read to the end ("exit" can come first).
    child.on("close", (code) => (clearTimeout(timer), res({ code, stderr })));
  });
}
