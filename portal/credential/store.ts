// Portal-minted box credentials in the shared key table (kind `session_credential`, scope `full`).
import { and, eq, lte } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { credentials } from "../../shared/key-table/schema.ts";

export class CredentialStore {
  constructor(private readonly db: LibSQLDatabase) {}

  async create(row: { id: string; hint: string; last4: string; owner: string; createdAt: number; expiresAt: number }): Promise<void> {
    await this.db.insert(credentials).values({ ...row, kind: "session_credential", scope: "full", createdBy: row.owner });
  }

  /** Expired credentials of one owner: the box refuses them already, so the rows are only clutter. */
  async purgeExpired(owner: string, now: number): Promise<void> {
    await this.db
      .delete(credentials)
      .where(and(eq(credentials.owner, owner), eq(credentials.kind, "session_credential"), lte(credentials.expiresAt, now)));
  }
}
