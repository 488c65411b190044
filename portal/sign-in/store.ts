// Magic-link rows (drizzle). Redemption is one conditional UPDATE, so a link works exactly once
// even when two requests race to use it.
import { and, count, eq, gt, gte, isNull, lte } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { signInLinks } from "../db/schema.ts";

export class SignInLinkStore {
  constructor(private readonly db: LibSQLDatabase) {}

  async create(row: { id: string; email: string; next: string; createdAt: number; expiresAt: number }): Promise<void> {
    await this.db.insert(signInLinks).values(row);
  }

  async countSince(email: string, since: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(signInLinks)
      .where(and(eq(signInLinks.email, email), gte(signInLinks.createdAt, since)));
    return row?.n ?? 0;
  }

  /** Marks the link used when it is unused and unexpired; returns it, or null when it was not. */
  async redeem(id: string, now: number): Promise<{ email: string; next: string } | null> {
    const rows = await this.db
      .update(signInLinks)
      .set({ usedAt: now })
      .where(and(eq(signInLinks.id, id), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)))
      .returning({ email: signInLinks.email, next: signInLinks.next });
    return rows[0] ?? null;
  }

  /** Rows older than the rate-limit window are no longer needed for anything. */
  async purgeBefore(before: number): Promise<void> {
    await this.db.delete(signInLinks).where(lte(signInLinks.createdAt, before));
  }
}
