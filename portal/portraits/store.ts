// Portrait rows (portal/db/schema.ts `portraits`) and approval: the upload attestation (shared
// `upload_attestations`, the row a box checks a `consent_token` against) and the portrait's
// `consent_id` are written in one transaction, and only while the portrait has none, so repeated
// or concurrent approvals leave exactly one attestation.
import type { Client } from "@libsql/client";
import { and, desc, eq, sql } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { drizzle } from "drizzle-orm/libsql/web";
import { portraits, type PortraitRow } from "../db/schema.ts";

export type NewPortraitRow = typeof portraits.$inferInsert;

const ATTEST = `INSERT INTO upload_attestations (consent_id, sha256, attested_at, source_kind)
  SELECT ?, sha256, ?, 'image' FROM portraits
  WHERE portrait_id = ? AND owner = ? AND sha256 = ? AND consent_id IS NULL`;
const MARK_APPROVED = `UPDATE portraits SET consent_id = ?, approved_at = ?
  WHERE portrait_id = ? AND owner = ? AND sha256 = ? AND consent_id IS NULL`;

export class PortraitStore {
  private readonly db: LibSQLDatabase;

  constructor(private readonly client: Client) {
    this.db = drizzle(client);
  }

  async insert(row: NewPortraitRow): Promise<void> {
    await this.db.insert(portraits).values(row);
  }

  /** The owner's portrait, or null (missing and not theirs alike). */
  async get(owner: string, portraitId: string): Promise<PortraitRow | null> {
    const [row] = await this.db
      .select()
      .from(portraits)
      .where(and(eq(portraits.portraitId, portraitId), eq(portraits.owner, owner)))
      .limit(1);
    return row ?? null;
  }

  /** Every portrait of the owner's, newest first (the same second: the later insert first). */
  async list(owner: string): Promise<PortraitRow[]> {
    return this.db.select().from(portraits).where(eq(portraits.owner, owner)).orderBy(desc(portraits.createdAt), desc(sql`rowid`));
  }

  /**
   * Records the approval of these exact bytes unless the portrait already has one; returns the
   * row as it stands after (its consent is whichever approval came first), or null when gone.
   */
  async approve(owner: string, portraitId: string, sha256: string, consentId: string, at: number): Promise<PortraitRow | null> {
    await this.client.batch(
      [
        { sql: ATTEST, args: [consentId, at, portraitId, owner, sha256] },
        { sql: MARK_APPROVED, args: [consentId, at, portraitId, owner, sha256] },
      ],
      "write",
    );
    return this.get(owner, portraitId);
  }
}
