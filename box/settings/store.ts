// drizzle queries for settings records (one per credential subject).
import { eq } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { settingsRecords } from "../db/schema.ts";

export class SettingsStore {
  constructor(private readonly db: LibSQLDatabase) {}

  async get(subject: string): Promise<Record<string, unknown> | null> {
    const rows = await this.db.select().from(settingsRecords).where(eq(settingsRecords.subject, subject));
    if (!rows[0]) return null;
    try {
      return JSON.parse(rows[0].record) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  async put(subject: string, record: object, now = Math.floor(Date.now() / 1000)): Promise<void> {
    const json = JSON.stringify(record);
    await this.db
      .insert(settingsRecords)
      .values({ subject, record: json, updatedAt: now })
      .onConflictDoUpdate({ target: settingsRecords.subject, set: { record: json, updatedAt: now } });
  }
}
