// Ownership for the asset route: an avatar of a person is an `avatar_observations` row whose
// `owner` is their e-mail (shared/avatar-tables/schema.ts). Rows of other people do not exist here.
import { and, eq } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { avatarObservations } from "../../shared/avatar-tables/schema.ts";

export const OWNS_AVATAR_SQL = "SELECT 1 AS one FROM avatar_observations WHERE owner = ? AND avatar_id = ? LIMIT 1";

/** A faster answer on the same database (a Bun entry's bun:sqlite statement: ownership-reads.ts). */
export interface OwnershipReads {
  owns(owner: string, avatarId: string): boolean | Promise<boolean>;
  close?(): void;
}

export class AvatarOwnership {
  constructor(
    private readonly db: LibSQLDatabase,
    private readonly fast: OwnershipReads | null = null,
  ) {}

  async owns(owner: string, avatarId: string): Promise<boolean> {
    if (this.fast) return this.fast.owns(owner, avatarId);
    const t = avatarObservations;
    const rows = await this.db
      .select({ id: t.avatarId })
      .from(t)
      .where(and(eq(t.owner, owner), eq(t.avatarId, avatarId)))
      .limit(1);
    return rows.length > 0;
  }
}
