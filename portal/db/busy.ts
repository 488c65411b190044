// A busy portal database: another process (a box, an operator's sqlite3 shell, a backup) holds the
// write lock of the local file longer than the busy timeout. Writes then answer 503 `database_busy`
// (portal/http/errors.ts), and work again as soon as the lock is gone, without a restart.
// Web-standard: no client import, so local-file.ts can use it from an edge isolate's graph too.
import type { Client, Transaction } from "@libsql/client";
import { ApiError } from "../../shared/errors/api-error.ts";
import { sqliteCause } from "../../shared/errors/database-unusable.ts";

/** SQLITE_BUSY (any extended form: BUSY_SNAPSHOT ...) or SQLITE_LOCKED, anywhere in the cause chain (drizzle wraps it). */
export function isDatabaseBusy(err: unknown): boolean {
  const code = sqliteCause(err)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
}

/** Seconds a client is told to wait before trying again (`Retry-After`). */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export function databaseBusyError(): ApiError {
  return new ApiError(
    503,
    "database_busy",
    "The portal's database is busy: another process is holding its write lock. Try again in a few seconds.",
  );
}

/**
 * A full collection now, where the runtime offers one: Bun always; Node or Deno only when started
 * with --expose-gc (without it, their own next collection finalises the statement instead).
 */
export function collectGarbage(): void {
  const g = globalThis as { Bun?: { gc(force: boolean): void }; gc?: () => void };
  if (g.Bun) g.Bun.gc(true);
  else if (typeof g.gc === "function") g.gc();
}

export interface RecoverFromBusyOptions {
  /** Finalises unreachable statements; default `collectGarbage`. */
  collect?: () => void;
}

// The calls that run statements; `transaction` also hands out a transaction whose calls are guarded too.
const CLIENT_CALLS = new Set<PropertyKey>(["execute", "batch", "migrate", "executeMultiple", "transaction"]);
const TRANSACTION_CALLS = new Set<PropertyKey>(["execute", "batch", "executeMultiple", "commit", "rollback"]);

/**
 * `client` (a local file's) made to recover from a busy database. When a statement fails with
 * SQLITE_BUSY, libsql leaves it suspended mid-step (libsql-js resets a statement only before it
 * runs it, tursodatabase/libsql-js#237; @libsql/client drops its handle without finalising it)
 * until the garbage collector finalises it, seconds or minutes later. Until then the connection it ran on is broken although
 * the lock is gone: every COMMIT there fails with "cannot commit transaction - SQL statements in
 * progress", and its stale read snapshot refuses later writes. So a busy failure collects garbage
 * at once, which finalises the abandoned statement and gives the connection back whole.
 *
 * Closing the broken connections instead (`reconnect`) is not safe here: the Bun entry also reads
 * the file through bun:sqlite, a second SQLite in the same process, and closing a file releases
 * every POSIX lock the process holds on it, that SQLite's too (another process may then reset the
 * WAL under its readers).
 */
export function recoverFromBusy(client: Client, opts: RecoverFromBusyOptions = {}): Client {
  const collect = opts.collect ?? collectGarbage;
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      if (isDatabaseBusy(err)) {
        // An error's unread stack trace holds the frames' receivers, the statement among them
        // (V8): reading it makes the trace text and lets the statement go.
        for (let e = err as { stack?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 8; e = e.cause as typeof e, depth++)
          void e.stack;
        collect();
        // Some runtimes run native finalisers after the collection, on the next turn.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      throw err;
    }
  };
  const guarded = <T extends object>(target: T, calls: ReadonlySet<PropertyKey>): T =>
    new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t) as unknown;
        if (typeof value !== "function") return value;
        if (!calls.has(prop)) return value.bind(t);
        if (prop === "transaction")
          return (...args: unknown[]) => guard(async () => guarded((await value.apply(t, args)) as Transaction, TRANSACTION_CALLS));
        return (...args: unknown[]) => guard(() => value.apply(t, args) as Promise<unknown>);
      },
    });
  return guarded(client, CLIENT_CALLS);
}
