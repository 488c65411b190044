// The box's own libSQL database on its volume: settings records and the conversation index.
// Transcripts live beside it as files (conversations/transcripts.ts) so the index row and the
// transcript can be removed in that order, and a missing transcript is reported, not fatal.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

export const settingsRecords = sqliteTable("settings_records", {
  subject: text("subject").primaryKey(),
  record: text("record").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    subject: text("subject").notNull(),
    title: text("title").notNull(),
    preview: text("preview").notNull(),
    turns: integer("turns").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("conversations_subject_updated").on(t.subject, t.updatedAt, t.id)],
);

/** The conversation a credential's next turn is written into (POST /api/chat/reset moves it). */
export const currentConversations = sqliteTable("current_conversations", {
  subject: text("subject").primaryKey(),
  conversationId: text("conversation_id").notNull(),
});
