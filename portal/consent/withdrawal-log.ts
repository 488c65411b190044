// The withdrawal log (portal database): see withdrawal-schema.ts for why it exists. The avatar
// library writes a row in the same batch as the change that withdraws (private, erased); the
// ledger reads the unflushed rows before each of its own accesses.
import type { Client, InStatement } from "@libsql/client";
import { asc, inArray, isNull, sql } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { drizzle } from "drizzle-orm/libsql/web";
import { publicationWithdrawals, type PublicationWithdrawalRow } from "./withdrawal-schema.ts";

/** Flushed rows are kept this long (seconds), then pruned; only unflushed rows carry meaning. */
const KEEP_FLUSHED_SECONDS = 24 * 3600;

export class WithdrawalLog {
  readonly #db: LibSQLDatabase;

  constructor(private readonly client: Client) {
    this.#db = drizzle(client);
  }

  /**
   * A withdrawal for (owner, avatar id), written only when the person has a library row for it:
   * for a batch that also changes or deletes those rows (put it before the delete).
   */
  static recordIfOwned(owner: string, avatarId: string, requestedAt: number): InStatement {
    return {
      sql: `INSERT INTO publication_withdrawals (owner, avatar_id, requested_at)
        SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM avatar_observations WHERE owner = ? AND avatar_id = ?)`,
      args: [owner, avatarId, requestedAt, owner, avatarId],
    };
  }

  /** SQL condition (2 args: owner, avatar id, then the id): no withdrawal newer than `id` for it. */
  static readonly NONE_NEWER = `NOT EXISTS (SELECT 1 FROM publication_withdrawals
    WHERE owner = ? AND avatar_id = ? AND id > ?)`;

  /** A withdrawal, unconditionally. */
  async record(owner: string, avatarId: string, requestedAt: number): Promise<void> {
    await this.#db.insert(publicationWithdrawals).values({ owner, avatarId, requestedAt });
  }

  /**
   * The largest id in the log (0 for none). Every later withdrawal gets a larger id, even when this
   * row is pruned meanwhile: AUTOINCREMENT never hands an id out twice.
   */
  async latestId(): Promise<number> {
    const rs = await this.client.execute("SELECT coalesce(max(id), 0) AS id FROM publication_withdrawals");
    return Number(rs.rows[0]?.id ?? 0);
  }

  async unflushed(limit: number): Promise<PublicationWithdrawalRow[]> {
    const w = publicationWithdrawals;
    return this.#db.select().from(w).where(isNull(w.flushedAt)).orderBy(asc(w.id)).limit(limit);
  }

  async markFlushed(ids: number[], at: number): Promise<void> {
    if (ids.length === 0) return;
    const w = publicationWithdrawals;
    await this.#db.update(w).set({ flushedAt: at }).where(inArray(w.id, ids));
    await this.#db.delete(w).where(sql`${w.flushedAt} IS NOT NULL AND ${w.flushedAt} < ${at - KEEP_FLUSHED_SECONDS}`);
  }
}
