// drizzle queries for settings records (one per credential subject).
import { eq } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { settingsRecords } from "../db/schema.ts";

// No credential subject looks like this (they are "open", "key:…" or "owner:…").
const PROBE_SUBJECT = "probe:settings-store";

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

  /** Throws when a save cannot work now (a table of the wrong shape, a read-only file): writes and
   *  removes a probe row the way a save would. The box is the only writer of its database. */
  async probeSave(): Promise<void> {
    await this.put(PROBE_SUBJECT, {});
    await this.db.delete(settingsRecords).where(eq(settingsRecords.subject, PROBE_SUBJECT));
  }
}
