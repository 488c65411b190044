// Integration: a box.db SQLite cannot use stops the box with one readable line (which file,
// SQLite's own cause, what to do), not a stack of driver frames.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, openSync, rmSync, writeSync, closeSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBoxExpectingExit } from "../testing/spawn-box.ts";
import { openBoxDb } from "./client.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "box-db-unusable-"));
  dirs.push(dir);
  return dir;
}

function expectOneReadableLine(stderr: string, path: string, cause: RegExp): void {
  const lines = stderr.trim().split("\n");
  expect(lines, stderr).toHaveLength(1);
  const line = JSON.parse(lines[0]) as { level: string; msg: string; path: string; code: string };
  expect(line).toMatchObject({ level: "error", path });
  expect(line.msg).toContain(path);
  expect(line.msg).toMatch(cause);
  expect(line.msg).toMatch(/move it aside or restore it from a backup; the box makes a fresh one at start/i);
  expect(stderr).not.toMatch(/CREATE TABLE|uncaught|\n\s+at /);
}

describe("an unusable box.db", () => {
  it("a file that is not a database: exit 1, naming the file and SQLite's cause", async () => {
    const dir = dataDir();
    writeFileSync(join(dir, "box.db"), randomBytes(8192));
    const { code, stderr } = await runBoxExpectingExit({ BOX_DATA_DIR: dir });
    expect(code).toBe(1);
    expectOneReadableLine(stderr, join(dir, "box.db"), /file is not a database \(SQLITE_NOTADB\)/);
  });

  it("a folder where the file should be: exit 1, one line naming it, no stack", async () => {
    const dir = dataDir();
    mkdirSync(join(dir, "box.db"));
    const { code, stderr } = await runBoxExpectingExit({ BOX_DATA_DIR: dir });
    expect(code).toBe(1);
    const lines = stderr.trim().split("\n");
    expect(lines, stderr).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { level: string; msg: string; path: string; code: string };
    expect(line).toMatchObject({ level: "error", path: join(dir, "box.db"), code: "SQLITE_CANTOPEN" });
    expect(line.msg).toBe(
      `the box database ${join(dir, "box.db")} is unusable: it is a folder, not a database file (SQLITE_CANTOPEN). Move the folder aside; the box makes a fresh one at start.`,
    );
  });

  it("a database damaged past its first page: found at start, not mid-session", async () => {
    const dir = dataDir();
    const made = await openBoxDb(dir);
    made.client.close();
    const fd = openSync(join(dir, "box.db"), "r+");
    writeSync(fd, randomBytes(4096), 0, 4096, 2 * 4096); // the third page: a table's root
    closeSync(fd);
    const { code, stderr } = await runBoxExpectingExit({ BOX_DATA_DIR: dir });
    expect(code).toBe(1);
    expectOneReadableLine(stderr, join(dir, "box.db"), /malformed.*\(SQLITE_CORRUPT\)/);
  });
});

describe("an unusable shared database (BOX_KEY_TABLE_URL)", () => {
  it("a file that is not a database: exit 1, one line naming it and SQLite's cause", async () => {
    const dir = dataDir();
    const shared = join(dir, "shared.db");
    writeFileSync(shared, randomBytes(8192));
    const { code, stderr } = await runBoxExpectingExit({ BOX_DATA_DIR: join(dir, "volume"), BOX_KEY_TABLE_URL: `file:${shared}` });
    expect(code).toBe(1);
    const lines = stderr.trim().split("\n");
    expect(lines, stderr).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { level: string; msg: string; path: string; code: string };
    expect(line).toMatchObject({ level: "error", path: shared, code: "SQLITE_NOTADB" });
    expect(line.msg).toBe(
      `the shared database ${shared} is unusable: file is not a database (SQLITE_NOTADB). Move it aside or restore it from a backup; the portal makes a fresh one at start, without the keys and accounts this one held.`,
    );
    expect(stderr).not.toMatch(/CREATE TABLE|uncaught|\n\s+at /);
  });

  it("a libSQL server nobody answers at: exit 1, one line saying to check BOX_KEY_TABLE_URL", async () => {
    const { code, stderr } = await runBoxExpectingExit({
      BOX_DATA_DIR: join(dataDir(), "volume"),
      BOX_KEY_TABLE_URL: "libsql://127.0.0.1:1",
    });
    expect(code).toBe(1);
    const lines = stderr.trim().split("\n");
    expect(lines, stderr).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { msg: string; code: string };
    expect(line.code).toBe("UNAVAILABLE");
    expect(line.msg).toMatch(/^the shared database libsql:\/\/127\.0\.0\.1:1 is unusable: .*ECONNREFUSED.*Check BOX_KEY_TABLE_URL/);
  });
});
