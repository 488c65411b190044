// Portal sessions (drizzle). Lookups go through prepared statements: this runs on every request.
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import type { HotReads } from "../db/hot-reads.ts";
import { portalSessions } from "../db/schema.ts";

export class SessionStore {
  readonly #db: LibSQLDatabase;
  readonly #find;

  readonly #reads: HotReads | null;

  constructor(db: LibSQLDatabase, reads: HotReads | null = null) {
    this.#db = db;
    this.#reads = reads;
    this.#find = db
      .select({ email: portalSessions.email })
      .from(portalSessions)
      .where(and(eq(portalSessions.id, sql.placeholder("id")), gt(portalSessions.expiresAt, sql.placeholder("now"))))
      .prepare();
  }

  async create(row: { id: string; email: string; createdAt: number; expiresAt: number; method: string }): Promise<void> {
    await this.#db.insert(portalSessions).values(row);
  }

  /** The session's e-mail while it is live, else null. */
  async find(id: string, now: number): Promise<string | null> {
    if (this.#reads) return this.#reads.sessionEmail(id, now);
    const row = await this.#find.get({ id, now });
    return row?.email ?? null;
  }

  async delete(id: string): Promise<void> {
    await this.#db.delete(portalSessions).where(eq(portalSessions.id, id));
  }

  async purgeExpired(now: number): Promise<void> {
    await this.#db.delete(portalSessions).where(lte(portalSessions.expiresAt, now));
  }
}
