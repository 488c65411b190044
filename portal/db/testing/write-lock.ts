// A second process holding the write lock on a SQLite file, as a box or an operator's sqlite3
// shell would: for tests of what the portal answers while its database is busy.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const HOLDER = fileURLToPath(new URL("./write-lock-holder.ts", import.meta.url));
const BUN = fileURLToPath(new URL("../../../node_modules/.bin/bun", import.meta.url));

export interface WriteLock {
  /** Commits the holder's transaction and waits until its process says so. */
  release(): Promise<void>;
}

/** Resolves once another process holds `BEGIN <mode>` on `path`, having run `sql` inside it. */
export async function holdWriteLock(path: string, opts: { mode?: "IMMEDIATE" | "EXCLUSIVE"; sql?: string } = {}): Promise<WriteLock> {
  const child = spawn(BUN, [HOLDER, path, opts.mode ?? "IMMEDIATE", opts.sql ?? ""], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (want: string) => {
    const line = await lines.next();
    if (line.done || line.value !== want) throw new Error(`the lock holder did not say "${want}": ${line.value ?? ""} ${stderr}`);
  };
  await next("locked");
  return {
    async release() {
      child.stdin!.write("release\n");
      await next("released");
      await new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r(null)));
    },
  };
}
