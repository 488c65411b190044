// A racing process for the cross-process tests: it opens its own connection, prints "ready", waits
// for "go" on stdin, races, then prints its HTTP statuses as one JSON array.
import { spawn } from "node:child_process";

export interface Racer {
  /** Resolves once the process printed "ready" (its connection is open). */
  ready: Promise<void>;
  /** The statuses it printed; rejects with its output when it failed. */
  done: Promise<number[]>;
  go(): void;
}

/** `env` replaces the environment when given (a Deno child must not see the test's own variables). */
export function racer(command: string, args: string[], env?: Record<string, string>): Racer {
  const p = spawn(command, args, {
    stdio: ["pipe", "pipe", "inherit"],
    env: env ? { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env } : process.env,
  });
  let out = "";
  const ready = new Promise<void>((resolve) => p.stdout.on("data", (d) => (out += d) && out.startsWith("ready\n") && resolve()));
  // "close", not "exit": it comes after the racer's stdout is read to its end.
  const done = new Promise<number[]>((resolve, reject) =>
    p.on("close", (code) => {
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(out.slice("ready\n".length)));
      } catch (err) {
        reject(new Error(`racer failed (${(err as Error).message}): ${JSON.stringify(out)}`));
      }
    }),
  );
  return { ready, done, go: () => void p.stdin.write("go\n") };
}
