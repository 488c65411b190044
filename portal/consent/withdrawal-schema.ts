// Implements: Avatar visibility (public → private "always allowed, even when the consent ledger is
// unreachable"). The withdrawal log lives in the portal's own database, beside the library rows, so
// a withdrawal is recorded in the same write as the visibility change and reaches the ledger
// (which may be elsewhere, or down) later: every ledger access first flushes the unflushed rows.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

export const publicationWithdrawals = sqliteTable(
  "publication_withdrawals",
  {
    /**
     * AUTOINCREMENT: ids are never reused, even after flushed rows are pruned. A publish remembers
     * the largest id before it reads the ledger and refuses to flip if a newer withdrawal appeared.
     */
    id: integer("id").primaryKey({ autoIncrement: true }),
    owner: text("owner").notNull(),
    avatarId: text("avatar_id").notNull(),
    /** When the person asked: becomes `withdrawn_at` on the agreements attested up to then. */
    requestedAt: integer("requested_at").notNull(),
    /** Null until the ledger recorded it. */
    flushedAt: integer("flushed_at"),
  },
  (t) => [
    index("publication_withdrawals_owner_avatar").on(t.owner, t.avatarId, t.id),
    index("publication_withdrawals_unflushed").on(t.id).where(sql`flushed_at IS NULL`),
  ],
);

export type PublicationWithdrawalRow = typeof publicationWithdrawals.$inferSelect;
