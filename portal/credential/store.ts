// Portal-minted box credentials in the shared key table (kind `session_credential`, scope `full`).
import { and, eq, lte } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { credentials } from "../../shared/key-table/schema.ts";

/** How long an expired credential's row is kept (longer than any box lives). */
export const PURGE_AFTER_SECONDS = 24 * 3600;

export class CredentialStore {
  constructor(private readonly db: LibSQLDatabase) {}

  async create(row: { id: string; hint: string; last4: string; owner: string; createdAt: number; expiresAt: number }): Promise<void> {
    await this.db.insert(credentials).values({ ...row, kind: "session_credential", scope: "full", createdBy: row.owner });
  }

  /**
   * Credentials of one owner expired a day or more ago. Not the ones that just aged out: a socket
   * opened with one keeps going until it renews (spec: an aged-out session continues), and the box
   * reads a row that is gone as revoked, which would end that session.
   */
  async purgeExpired(owner: string, now: number): Promise<void> {
    await this.db
      .delete(credentials)
      .where(
        and(
          eq(credentials.owner, owner),
          eq(credentials.kind, "session_credential"),
          lte(credentials.expiresAt, now - PURGE_AFTER_SECONDS),
        ),
      );
  }
}
