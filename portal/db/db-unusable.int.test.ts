// Integration: a portal database SQLite cannot use stops the portal with one readable line
// (which file, SQLite's own cause, what to do), not a stack of driver frames.
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function runPortalExpectingExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn("node_modules/.bin/bun", ["portal/main.ts"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORTAL_PORT: "0", PORTAL_GPU_DRIVER: "none", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    // "close": after its stderr is read to the end ("exit" can come first).
    child.on("close", (code) => (clearTimeout(timer), resolve({ code, stderr })));
  });
}

describe("an unusable portal database", () => {
  it("a file that is not a database: exit 1, naming the file, SQLite's cause and what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portal-db-unusable-"));
    dirs.push(dir);
    const path = join(dir, "portal.db");
    writeFileSync(path, randomBytes(8192));
    const { code, stderr } = await runPortalExpectingExit({ PORTAL_DB_URL: `file:${path}`, PORTAL_DATA_DIR: dir });
    expect(code).toBe(1);
    const lines = stderr.trim().split("\n");
    expect(lines, stderr).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { level: string; msg: string; path: string; code: string };
    expect(line).toMatchObject({ level: "error", path, code: "SQLITE_NOTADB" });
    expect(line.msg).toContain(path);
    expect(line.msg).toContain("file is not a database");
    expect(line.msg).toMatch(/move it aside or restore it from a backup/i);
    expect(stderr).not.toMatch(/CREATE TABLE|PRAGMA|\n\s+at /);
  });
});
