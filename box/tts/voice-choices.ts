// Implements: a person's saved voice engine choice, as the box reads it: the portal's tables in the
// shared database (SharedVoiceChoices), read for a credential subject's owner and reused for a few
// seconds (PersonChoices), so every sentence does not cost a database read and a change on the
// portal is seen soon after.
import type { Client } from "@libsql/client";
import type { SealedVoiceKey } from "../../shared/voice-keys/crypto.ts";

/** A person's saved engine choice, read from the shared database. */
export interface OwnerChoice {
  engine: string;
  /** The saved key of that engine's provider, sealed (null: none saved). */
  sealed: SealedVoiceKey | null;
}

export interface ChoiceReader {
  choiceOf(owner: string): Promise<OwnerChoice | null>;
}

/** The portal's tables `voice_engine_choices` and `voice_keys` in the shared database (one join). */
export class SharedVoiceChoices implements ChoiceReader {
  constructor(private readonly client: Client) {}

  async choiceOf(owner: string): Promise<OwnerChoice | null> {
    let rows;
    try {
      rows = (
        await this.client.execute({
          sql: "SELECT c.engine AS engine, k.key_id AS key_id, k.nonce AS nonce, k.ciphertext AS ciphertext FROM voice_engine_choices c LEFT JOIN voice_keys k ON k.owner = c.owner AND k.provider = c.engine WHERE c.owner = ?",
          args: [owner],
        })
      ).rows;
    } catch (err) {
      // The portal's tables are not in this database (a box without a portal): nobody chose.
      if (/no such table/i.test(String((err as Error)?.message))) return null;
      throw err;
    }
    const r = rows[0] as unknown as { engine: string; key_id: string | null; nonce: string | null; ciphertext: string | null } | undefined;
    if (!r) return null;
    return {
      engine: r.engine,
      sealed: r.key_id && r.nonce && r.ciphertext ? { keyId: r.key_id, nonce: r.nonce, ciphertext: r.ciphertext } : null,
    };
  }
}

/** A subject's person (owner) and their saved choice (null: the subject has no owner, or no reader). */
export type Person = { owner: string; choice: OwnerChoice | null };

export interface PersonChoicesOptions {
  choices?: ChoiceReader | null;
  /** A credential subject's owner (the person), or undefined when it has none. */
  ownerOf?: (subject: string) => Promise<string | undefined>;
  /** How long a person's engine choice is reused before the shared database is read again. */
  choiceTtlMs?: number;
  now: () => number;
  log?: (line: Record<string, unknown>) => void;
}

/** Each subject's person and saved choice, cached for `choiceTtlMs`. */
export class PersonChoices {
  private readonly choiceCache = new Map<string, { at: number; value: Person | null }>();

  constructor(private readonly o: PersonChoicesOptions) {}

  async personOf(subject: string): Promise<Person | null> {
    const hit = this.choiceCache.get(subject);
    if (hit && this.o.now() - hit.at < (this.o.choiceTtlMs ?? 5_000)) return hit.value;
    let value: Person | null = null;
    const owner = this.o.ownerOf ? await this.o.ownerOf(subject).catch(() => undefined) : undefined;
    if (owner && this.o.choices) {
      const choice = await this.o.choices.choiceOf(owner).catch((err: Error) => {
        this.o.log?.({ level: "warn", msg: "voice choice unreadable", error: err.message });
        return null;
      });
      value = { owner, choice };
    }
    this.choiceCache.set(subject, { at: this.o.now(), value });
    return value;
  }
}
