// Voice settings rows (portal/db/schema.ts: voice_keys, voice_engine_choices). Each change that must
// stay consistent with the other table is one statement or one write transaction: a key deleted
// while the same person picks that provider leaves either the engine on `espeak` or a 409, never an
// engine that points at a missing key.
import type { Client } from "@libsql/client";
import { and, asc, eq } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { voiceEngineChoices, voiceKeys, type VoiceKeyRow } from "../db/schema.ts";
import type { SealedVoiceKey } from "../../shared/voice-keys/crypto.ts";
import { BUILT_IN_ENGINE, type HostedProvider } from "./schema.ts";

export type VoiceKeyListRow = Pick<VoiceKeyRow, "provider" | "last4" | "createdAt" | "updatedAt" | "validatedAt">;

const UPSERT_KEY = `INSERT INTO voice_keys (owner, provider, key_id, nonce, ciphertext, last4, created_at, updated_at, validated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (owner, provider) DO UPDATE SET key_id = excluded.key_id, nonce = excluded.nonce,
    ciphertext = excluded.ciphertext, last4 = excluded.last4, updated_at = excluded.updated_at,
    validated_at = excluded.validated_at`;

// The key's existence and the choice are one statement, so the check cannot go stale before the write.
const CHOOSE_HOSTED = `INSERT INTO voice_engine_choices (owner, engine, updated_at)
  SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM voice_keys WHERE owner = ? AND provider = ?)
  ON CONFLICT (owner) DO UPDATE SET engine = excluded.engine, updated_at = excluded.updated_at`;

const CHOOSE_BUILT_IN = `INSERT INTO voice_engine_choices (owner, engine, updated_at) VALUES (?, ?, ?)
  ON CONFLICT (owner) DO UPDATE SET engine = excluded.engine, updated_at = excluded.updated_at`;

export class VoiceStore {
  constructor(
    private readonly db: LibSQLDatabase,
    private readonly client: Client,
  ) {}

  /** The owner's engine choice (null: never chosen) and saved keys, read in one transaction. */
  async read(owner: string): Promise<{ engine: string | null; keys: VoiceKeyListRow[] }> {
    const [choice, keys] = await this.db.batch([
      this.db.select({ engine: voiceEngineChoices.engine }).from(voiceEngineChoices).where(eq(voiceEngineChoices.owner, owner)),
      this.db
        .select({
          provider: voiceKeys.provider,
          last4: voiceKeys.last4,
          createdAt: voiceKeys.createdAt,
          updatedAt: voiceKeys.updatedAt,
          validatedAt: voiceKeys.validatedAt,
        })
        .from(voiceKeys)
        .where(eq(voiceKeys.owner, owner))
        .orderBy(asc(voiceKeys.provider)),
    ]);
    return { engine: choice[0]?.engine ?? null, keys };
  }

  /** Inserts or replaces the owner's key for the provider (created_at kept on replace). */
  async saveKey(row: {
    owner: string;
    provider: HostedProvider;
    sealed: SealedVoiceKey;
    last4: string;
    now: number;
    validatedAt: number | null;
  }): Promise<void> {
    await this.client.execute({
      sql: UPSERT_KEY,
      args: [
        row.owner,
        row.provider,
        row.sealed.keyId,
        row.sealed.nonce,
        row.sealed.ciphertext,
        row.last4,
        row.now,
        row.now,
        row.validatedAt,
      ],
    });
  }

  /** Removes the key; an engine that was that provider falls back to the built-in one, atomically. */
  async deleteKey(owner: string, provider: HostedProvider, now: number): Promise<void> {
    await this.client.batch(
      [
        { sql: "DELETE FROM voice_keys WHERE owner = ? AND provider = ?", args: [owner, provider] },
        {
          sql: "UPDATE voice_engine_choices SET engine = ?, updated_at = ? WHERE owner = ? AND engine = ?",
          args: [BUILT_IN_ENGINE, now, owner, provider],
        },
      ],
      "write",
    );
  }

  /** Sets the engine; a hosted provider only while the owner has its key (false when not). */
  async chooseEngine(owner: string, engine: string, now: number): Promise<boolean> {
    if (engine === BUILT_IN_ENGINE) {
      await this.client.execute({ sql: CHOOSE_BUILT_IN, args: [owner, engine, now] });
      return true;
    }
    const result = await this.client.execute({ sql: CHOOSE_HOSTED, args: [owner, engine, now, owner, engine] });
    return result.rowsAffected === 1;
  }

  /** The sealed key, for a reader holding the derived key (tests; the box reads the same columns). */
  async sealedKey(owner: string, provider: HostedProvider): Promise<SealedVoiceKey | null> {
    const [row] = await this.db
      .select({ keyId: voiceKeys.keyId, nonce: voiceKeys.nonce, ciphertext: voiceKeys.ciphertext })
      .from(voiceKeys)
      .where(and(eq(voiceKeys.owner, owner), eq(voiceKeys.provider, provider)));
    return row ?? null;
  }
}
