// drizzle queries for the conversation index and the per-credential current conversation.
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { conversations, currentConversations } from "../db/schema.ts";
import type { CursorPosition } from "./cursor.ts";

export type ConversationRow = typeof conversations.$inferSelect;

export class ConversationStore {
  constructor(private readonly db: LibSQLDatabase) {}

  async page(subject: string, limit: number, after: CursorPosition | null): Promise<ConversationRow[]> {
    const mine = eq(conversations.subject, subject);
    const where = after
      ? and(
          mine,
          or(
            lt(conversations.updatedAt, after.updatedAt),
            and(eq(conversations.updatedAt, after.updatedAt), lt(conversations.id, after.id)),
          ),
        )
      : mine;
    return this.db.select().from(conversations).where(where).orderBy(desc(conversations.updatedAt), desc(conversations.id)).limit(limit);
  }

  async get(subject: string, id: string): Promise<ConversationRow | undefined> {
    const rows = await this.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.subject, subject), eq(conversations.id, id)));
    return rows[0];
  }

  async delete(subject: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(conversations)
      .where(and(eq(conversations.subject, subject), eq(conversations.id, id)))
      .returning({ id: conversations.id });
    return rows.length > 0;
  }

  async current(subject: string): Promise<string | null> {
    const rows = await this.db.select().from(currentConversations).where(eq(currentConversations.subject, subject));
    return rows[0]?.conversationId ?? null;
  }

  async setCurrent(subject: string, conversationId: string): Promise<void> {
    await this.db
      .insert(currentConversations)
      .values({ subject, conversationId })
      .onConflictDoUpdate({ target: currentConversations.subject, set: { conversationId } });
  }

  /** Creates the index row on the first turns, else bumps count, preview and updated_at. */
  async recordTurns(subject: string, id: string, added: number, title: string, preview: string, now: number): Promise<void> {
    await this.db
      .insert(conversations)
      .values({ id, subject, title, preview, turns: added, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: conversations.id,
        set: { turns: sql`${conversations.turns} + ${added}`, preview, updatedAt: now },
        setWhere: eq(conversations.subject, subject),
      });
  }
}
