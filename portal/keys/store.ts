// API keys in the shared key table (kind `api_key`). The box reads the same rows through
// BOX_KEY_TABLE_URL, so a created key works there at once and a revoked one stops at once.
import type { Client } from "@libsql/client";
import { and, asc, eq, sql } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { credentials } from "../../shared/key-table/schema.ts";
import type { HotReads, KeyListRow } from "../db/hot-reads.ts";

export type KeyRow = KeyListRow;

// The count and the insert are one statement inside one write transaction (BEGIN IMMEDIATE): two
// creates racing for the last slot are serialised by the database, so the limit holds exactly.
const INSERT_WITHIN_LIMIT = `INSERT INTO credentials (id, kind, scope, name, hint, last4, owner, created_at, created_by)
  SELECT ?, 'api_key', 'full', ?, ?, ?, ?, ?, ?
  WHERE (SELECT count(*) FROM credentials WHERE owner = ? AND kind = 'api_key') < ?`;

export class KeyStore {
  readonly #list;

  constructor(
    private readonly db: LibSQLDatabase,
    private readonly client: Client,
    private readonly reads: HotReads | null = null,
  ) {
    this.#list = db
      .select({
        id: credentials.id,
        name: credentials.name,
        hint: credentials.hint,
        last4: credentials.last4,
        createdAt: credentials.createdAt,
        createdBy: credentials.createdBy,
        revokedAt: credentials.revokedAt,
        revokedBy: credentials.revokedBy,
      })
      .from(credentials)
      .where(and(eq(credentials.owner, sql.placeholder("owner")), eq(credentials.kind, "api_key")))
      .orderBy(asc(credentials.createdAt), sql`rowid`)
      .prepare();
  }

  async list(owner: string): Promise<KeyRow[]> {
    if (this.reads) return this.reads.listKeys(owner);
    return this.#list.all({ owner });
  }

  /** Inserts the key unless the owner already holds `limit` keys; false when the limit refused it. */
  async createWithinLimit(
    row: { id: string; name: string; hint: string; last4: string; owner: string; createdAt: number },
    limit: number,
  ): Promise<boolean> {
    const [result] = await this.client.batch(
      [
        {
          sql: INSERT_WITHIN_LIMIT,
          args: [row.id, row.name, row.hint, row.last4, row.owner, row.createdAt, row.owner, row.owner, limit],
        },
      ],
      "write",
    );
    return result.rowsAffected === 1;
  }

  /** Revokes the owner's key; 'missing' when the owner has no key with that id. */
  async revoke(owner: string, id: string, revokedAt: number): Promise<"revoked" | "already" | "missing"> {
    const mine = and(eq(credentials.id, id), eq(credentials.owner, owner), eq(credentials.kind, "api_key"));
    const updated = await this.db
      .update(credentials)
      .set({ revokedAt, revokedBy: owner })
      .where(and(mine, sql`${credentials.revokedAt} IS NULL`))
      .returning({ id: credentials.id });
    if (updated.length === 1) return "revoked";
    const [existing] = await this.db.select({ id: credentials.id }).from(credentials).where(mine);
    return existing ? "already" : "missing";
  }
}
