// The library's rows: what boxes observed (`avatar_observations`, shared database), the portal's
// `visibility` column, and the erase orders. The portal writes only `visibility`, deletes rows on
// erasure and inserts orders (shared/avatar-tables/schema.ts says which plane writes what).
import type { Client } from "@libsql/client";
import { and, desc, eq, sql } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { drizzle } from "drizzle-orm/libsql/web";
import { avatarEraseOrders, avatarObservations, type AvatarObservationRow } from "../../shared/avatar-tables/schema.ts";
import { WithdrawalLog } from "../consent/withdrawal-log.ts";

export type LibraryRow = Pick<
  AvatarObservationRow,
  "avatarId" | "name" | "sourceKind" | "state" | "createdAt" | "updatedAt" | "preparedInRegion" | "weightsVolume" | "detail" | "visibility"
>;

export interface EraseOrderStatus {
  /** Orders ever written for this person's avatar id, and how many no box has drained yet. */
  total: number;
  pending: number;
  subjects: string[];
}

const o = avatarObservations;
const columns = {
  avatarId: o.avatarId,
  name: o.name,
  sourceKind: o.sourceKind,
  state: o.state,
  createdAt: o.createdAt,
  updatedAt: o.updatedAt,
  preparedInRegion: o.preparedInRegion,
  weightsVolume: o.weightsVolume,
  detail: o.detail,
  visibility: o.visibility,
};

// The record's columns in the order `toRow` reads them; the 11th is the subject (or the owner).
export const LIST_SQL = `SELECT avatar_id, name, source_kind, state, created_at, updated_at, prepared_in_region,
    weights_volume, detail, visibility, subject
  FROM avatar_observations WHERE owner = ?`;

/** A result row by position: a libSQL `Row`, or a bun:sqlite `values()` array. */
export type PositionalRow = ArrayLike<unknown>;

/**
 * Faster answers to the library's reads on the same database (a Bun entry's bun:sqlite statements
 * on a connection that never writes: library-reads.ts), positional rows of `LIST_SQL` and `PUBLIC_SQL`.
 */
export interface LibraryReads {
  list(owner: string): PositionalRow[];
  listPublic(): PositionalRow[];
  /**
   * SQLite's `PRAGMA data_version` on that connection: it changes whenever another connection (the
   * portal's libSQL client, a box) commits to the file, so an answer kept under it is exact.
   */
  dataVersion(): number;
  close?(): void;
}

function toRow(r: PositionalRow, avatarId: string, updatedAt: number): LibraryRow {
  return {
    avatarId,
    name: String(r[1]),
    sourceKind: String(r[2]) as LibraryRow["sourceKind"],
    state: String(r[3]) as LibraryRow["state"],
    createdAt: Number(r[4]),
    updatedAt,
    preparedInRegion: String(r[6]),
    weightsVolume: String(r[7]),
    detail: String(r[8]),
    visibility: String(r[9]) as LibraryRow["visibility"],
  };
}

// The public partition, one row per (owner, avatar id): the row that owner's library shows (the
// newest observation, then the larger subject, so the choice is total), when it is public.
export const PUBLIC_SQL = `SELECT o.avatar_id, o.name, o.source_kind, o.state, o.created_at, o.updated_at,
    o.prepared_in_region, o.weights_volume, o.detail, o.visibility, o.owner
  FROM avatar_observations o
  WHERE o.visibility = 'public' AND o.owner IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM avatar_observations n
      WHERE n.owner = o.owner AND n.avatar_id = o.avatar_id
        AND (n.updated_at > o.updated_at OR (n.updated_at = o.updated_at AND n.subject > o.subject)))
  ORDER BY o.created_at, o.avatar_id, o.owner`;

/** One row per avatar id (the newest observation, then the larger subject), oldest avatar first. */
function shownRows(rows: readonly PositionalRow[]): LibraryRow[] {
  const shown = new Map<string, { row: LibraryRow; subject: string }>();
  for (const r of rows) {
    const avatarId = String(r[0]);
    const updatedAt = Number(r[5]);
    const subject = String(r[10]);
    const held = shown.get(avatarId);
    if (held && (held.row.updatedAt > updatedAt || (held.row.updatedAt === updatedAt && held.subject > subject))) continue;
    shown.set(avatarId, { row: toRow(r, avatarId, updatedAt), subject });
  }
  return [...shown.values()].map((v) => v.row).sort((a, b) => a.createdAt - b.createdAt || (a.avatarId < b.avatarId ? -1 : 1));
}

export class LibraryStore {
  readonly #db: LibSQLDatabase;
  readonly #one;

  constructor(
    private readonly client: Client,
    private readonly fast: LibraryReads | null = null,
  ) {
    this.#db = drizzle(client);
    const db = this.#db;
    this.#one = db
      .select(columns)
      .from(o)
      .where(and(eq(o.owner, sql.placeholder("owner")), eq(o.avatarId, sql.placeholder("avatarId"))))
      .orderBy(desc(o.updatedAt), desc(o.subject))
      .limit(1)
      .prepare();
  }

  /**
   * One row per avatar id (the newest observation, then the larger subject), oldest avatar first.
   * Plain SQL and positional columns: this is the library's hot read (no per-row ORM mapping, no
   * sort in SQLite; the choice of row is made here in one pass).
   */
  async list(owner: string): Promise<LibraryRow[]> {
    if (this.fast) return shownRows(this.fast.list(owner));
    return shownRows((await this.client.execute({ sql: LIST_SQL, args: [owner] })).rows);
  }

  /**
   * A number that changes whenever the database may have changed (the faster reads'
   * `data_version`); null without them: the libSQL client cannot tell its own writes apart.
   */
  dataVersion(): number | null {
    return this.fast ? this.fast.dataVersion() : null;
  }

  async find(owner: string, avatarId: string): Promise<LibraryRow | null> {
    const [row] = await this.#one.all({ owner, avatarId });
    return row ?? null;
  }

  /** The public partition: every published avatar (as its owner's library shows it) and whose it is. */
  async listPublic(): Promise<(LibraryRow & { owner: string | null })[]> {
    const rows = this.fast ? this.fast.listPublic() : (await this.client.execute(PUBLIC_SQL)).rows;
    return rows.map((r) => ({ ...toRow(r, String(r[0]), Number(r[5])), owner: r[10] === null ? null : String(r[10]) }));
  }

  /**
   * Private, with the withdrawal logged in the same write transaction. Returns the rows changed
   * (0: the person has no such avatar).
   */
  async makePrivate(owner: string, avatarId: string, at: number): Promise<number> {
    const [, update] = await this.client.batch(
      [
        WithdrawalLog.recordIfOwned(owner, avatarId, at),
        { sql: "UPDATE avatar_observations SET visibility = 'private' WHERE owner = ? AND avatar_id = ?", args: [owner, avatarId] },
      ],
      "write",
    );
    return update.rowsAffected;
  }

  /**
   * Public, in one conditional statement: every row of the person's avatar, and only if no
   * withdrawal was logged after `sinceWithdrawal` (the log's last id before the ledger was read).
   * Returns the rows changed (0: gone, or withdrawn meanwhile).
   */
  async makePublic(owner: string, avatarId: string, sinceWithdrawal: number): Promise<number> {
    const rs = await this.client.execute({
      sql: `UPDATE avatar_observations SET visibility = 'public'
        WHERE owner = ? AND avatar_id = ? AND ${WithdrawalLog.NONE_NEWER}`,
      args: [owner, avatarId, owner, avatarId, sinceWithdrawal],
    });
    return rs.rowsAffected;
  }

  /**
   * Erases the person's rows of this avatar (every subject) in one write transaction: logs the
   * publication withdrawal, writes one `prepared_avatar` order per subject (none while one is
   * pending: the partial unique index), and deletes the rows. Returns the subjects erased.
   */
  async erase(owner: string, avatarId: string, at: number): Promise<string[]> {
    const [, , deleted] = await this.client.batch(
      [
        WithdrawalLog.recordIfOwned(owner, avatarId, at),
        {
          sql: `INSERT OR IGNORE INTO avatar_erase_orders (subject, avatar_id, owner, ordered_at)
            SELECT subject, avatar_id, owner, ? FROM avatar_observations WHERE owner = ? AND avatar_id = ?`,
          args: [at, owner, avatarId],
        },
        { sql: "DELETE FROM avatar_observations WHERE owner = ? AND avatar_id = ? RETURNING subject", args: [owner, avatarId] },
      ],
      "write",
    );
    return deleted.rows.map((r) => String(r.subject));
  }

  async eraseOrders(owner: string, avatarId: string): Promise<EraseOrderStatus> {
    const t = avatarEraseOrders;
    const rows = await this.#db
      .select({ subject: t.subject, doneAt: t.doneAt })
      .from(t)
      .where(and(eq(t.owner, owner), eq(t.avatarId, avatarId)));
    return {
      total: rows.length,
      pending: rows.filter((r) => r.doneAt === null).length,
      subjects: [...new Set(rows.map((r) => r.subject))],
    };
  }
}
