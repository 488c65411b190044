import type { Client } from "@libsql/client";

// A database file that stops a plane from starting, said in one readable sentence: which file,
// SQLite's own cause, and what to do. Entry points print it instead of a stack of driver frames.

export class DatabaseUnusable extends Error {
  constructor(
    readonly path: string,
    /** SQLite's primary result code, e.g. SQLITE_NOTADB. */
    readonly code: string,
    /** SQLite's own words, e.g. "file is not a database". */
    readonly reason: string,
    readonly remedy: string,
    what: string,
  ) {
    super(`the ${what} database ${path} is unusable: ${reason} (${code}). ${remedy}`);
    this.name = "DatabaseUnusable";
  }

  /** One JSON log line, like the planes' other stderr lines. */
  logLine(): string {
    return JSON.stringify({ level: "error", msg: this.message, path: this.path, code: this.code });
  }
}

/** Throws a SQLITE_CORRUPT error when SQLite's quick check finds damage anywhere in the file. */
export async function quickCheck(client: Client): Promise<void> {
  // Damage past the first page only shows when a query reaches it: find it at start, not mid-session.
  const verdict = String((await client.execute("PRAGMA quick_check(1)")).rows[0]?.[0] ?? "ok");
  if (verdict === "ok") return;
  const detail = verdict.replace(/\s*\n\s*/g, "; ");
  throw Object.assign(new Error(`database disk image is malformed (quick_check: ${detail})`), { code: "SQLITE_CORRUPT" });
}

/** SQLite's code and message from an error or any error in its `cause` chain (drizzle wraps them). */
export function sqliteCause(err: unknown): { code: string; reason: string } | null {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 8;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === "string" ? /^SQLITE_[A-Z]+/.exec(e.code)?.[0] : undefined;
    if (code) return { code, reason: String(e.message ?? "").replace(/^SQLITE_[A-Z_]+: /, "") };
  }
  return null;
}

/**
 * The readable form of a start-up failure on the database at `path`, or null when the error did
 * not come from SQLite. `what` names the database ("box"); `fresh` says what a missing file means.
 */
export function databaseUnusable(err: unknown, path: string, what: string, fresh: string): DatabaseUnusable | null {
  if (err instanceof DatabaseUnusable) return err;
  const cause = sqliteCause(err);
  return cause ? new DatabaseUnusable(path, cause.code, cause.reason, remedyFor(cause.code, fresh), what) : null;
}

function remedyFor(code: string, fresh: string): string {
  switch (code) {
    case "SQLITE_NOTADB":
    case "SQLITE_CORRUPT":
      return `Move it aside or restore it from a backup; ${fresh}.`;
    case "SQLITE_CANTOPEN":
    case "SQLITE_PERM":
    case "SQLITE_READONLY":
    case "SQLITE_AUTH":
      return "Check that the file and its folder exist and that this user may read and write both.";
    case "SQLITE_FULL":
      return "Free space on its disk.";
    case "SQLITE_IOERR":
      return "Reading or writing it failed: check the disk, then restore it from a backup if this persists.";
    case "SQLITE_BUSY":
    case "SQLITE_LOCKED":
      return "Another process holds it locked: stop that process.";
    default:
      // e.g. a migration meeting a table it did not create: the file is not one this version made.
      return `Its tables are not what this version expects: move it aside or restore it from a backup; ${fresh}.`;
  }
}
