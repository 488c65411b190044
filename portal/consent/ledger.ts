// Implements: Consent records (publication consent), Avatar visibility (the ledger side), and the
// `PORTAL_LEDGER_URL` contract: the ledger is a libSQL database of its own or the portal's, or off.
// Web-standard: the entry injects the client and, for a separate database, how to migrate it.
import type { Client } from "@libsql/client";
import { and, eq, isNull, lte } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { drizzle } from "drizzle-orm/libsql/web";
import { ApiError } from "../../shared/errors/api-error.ts";
import { publicationConsents, type PublicationConsentRow } from "./ledger-schema.ts";
import { opaqueId } from "./schema.ts";
import type { PublicationTerms } from "./terms.ts";
import type { WithdrawalLog } from "./withdrawal-log.ts";

export interface LedgerConnection {
  client: Client;
  /**
   * Applies the ledger's migrations; called before the first use and again after a failure (the
   * ledger may be down when the portal starts). Absent: the caller migrated it already.
   */
  migrate?: () => Promise<void>;
  /** How long one ledger access may take before it counts as unreachable; default 5000 ms. */
  timeoutMs?: number;
}

export interface PublicationLedgerOptions {
  /** Null: not configured (`PORTAL_LEDGER_URL=off`). */
  connection: LedgerConnection | null;
  withdrawals: WithdrawalLog;
  /** Epoch seconds. */
  now: () => number;
  log?: (msg: string, err?: unknown) => void;
}

const FLUSH_BATCH = 200;
const UNAVAILABLE = "publication_consent_unavailable";

export class PublicationLedger {
  readonly #conn: LedgerConnection | null;
  readonly #db: LibSQLDatabase | null;
  #ready: Promise<void> | null = null;

  constructor(private readonly opts: PublicationLedgerOptions) {
    this.#conn = opts.connection;
    this.#db = opts.connection ? drizzle(opts.connection.client) : null;
  }

  get configured(): boolean {
    return this.#conn !== null;
  }

  /** Records a new agreement (after flushing every pending withdrawal, so none can land on it). */
  async record(owner: string, avatarId: string, terms: PublicationTerms): Promise<PublicationConsentRow> {
    const row: PublicationConsentRow = {
      attestationId: opaqueId("pc_"),
      owner,
      avatarId,
      termsVersion: terms.version,
      termsSha256: terms.sha256,
      attestedAt: this.opts.now(),
      withdrawnAt: null,
    };
    await this.#access("record the agreement", async (db) => {
      await db.insert(publicationConsents).values(row);
    });
    return row;
  }

  /** Is there a recorded agreement for this avatar that was not withdrawn? Pending withdrawals count. */
  async hasAgreement(owner: string, avatarId: string): Promise<boolean> {
    return this.#access("read the agreements", async (db) => {
      const c = publicationConsents;
      const rows = await db
        .select({ id: c.attestationId })
        .from(c)
        .where(and(eq(c.owner, owner), eq(c.avatarId, avatarId), isNull(c.withdrawnAt)))
        .limit(1);
      return rows.length > 0;
    });
  }

  /** Records a withdrawal in the log and tries to carry it to the ledger now. */
  async withdraw(owner: string, avatarId: string): Promise<void> {
    await this.opts.withdrawals.record(owner, avatarId, this.opts.now());
    await this.tryFlush();
  }

  /**
   * Carries logged withdrawals to the ledger; never throws. The change that logged them has
   * answered already: a ledger that is off or down only delays this (the next access retries).
   */
  async tryFlush(): Promise<void> {
    if (!this.#conn) return;
    await this.#access("flush withdrawals", async () => undefined, Math.min(this.#timeoutMs, 2000)).catch((err) =>
      this.opts.log?.("portal: withdrawals stay pending until the consent ledger answers", err),
    );
  }

  get #timeoutMs(): number {
    return this.#conn?.timeoutMs ?? 5000;
  }

  /** Migrates (once), flushes pending withdrawals, then runs `op`; any failure is a 503. */
  async #access<T>(what: string, op: (db: LibSQLDatabase) => Promise<T>, timeoutMs = this.#timeoutMs): Promise<T> {
    const db = this.#db;
    if (!db || !this.#conn) {
      throw new ApiError(503, UNAVAILABLE, "Publishing is not available: this portal has no consent ledger configured.");
    }
    try {
      return await within(
        timeoutMs,
        (async () => {
          await this.#migrated();
          await this.#flush(db);
          return op(db);
        })(),
      );
    } catch (err) {
      if (err instanceof ApiError) throw err;
      this.opts.log?.(`portal: the consent ledger failed to ${what}`, err);
      throw new ApiError(503, UNAVAILABLE, "The consent ledger cannot be reached right now; try again shortly.");
    }
  }

  #migrated(): Promise<void> {
    const migrate = this.#conn?.migrate;
    if (!migrate) return Promise.resolve();
    this.#ready ??= migrate().catch((err: unknown) => {
      this.#ready = null;
      throw err;
    });
    return this.#ready;
  }

  async #flush(db: LibSQLDatabase): Promise<void> {
    const c = publicationConsents;
    for (;;) {
      const pending = await this.opts.withdrawals.unflushed(FLUSH_BATCH);
      if (pending.length === 0) return;
      // Only agreements attested up to the request: one recorded after it stands (same-second ones are withdrawn too).
      const updates = pending.map((w) =>
        db
          .update(c)
          .set({ withdrawnAt: w.requestedAt })
          .where(and(eq(c.owner, w.owner), eq(c.avatarId, w.avatarId), isNull(c.withdrawnAt), lte(c.attestedAt, w.requestedAt))),
      );
      await db.batch(updates as unknown as [(typeof updates)[number]]);
      await this.opts.withdrawals.markFlushed(
        pending.map((w) => w.id),
        this.opts.now(),
      );
      if (pending.length < FLUSH_BATCH) return;
    }
  }
}

/** Rejects when `p` has not settled within `ms`. */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
