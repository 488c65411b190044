// Implements: Consent records (a `consent_token` checked against its upload attestation), Avatar
// library record (the box writes what it observed), Avatar erasure `status` (the box drains the
// `prepared_avatar` erase orders at boot). The box's side of the shared database's avatar tables
// (shared/avatar-tables/schema.ts says which plane writes which column).
import { createClient, type Client } from "@libsql/client";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { UpstreamError } from "../../../shared/errors/api-error.ts";
import { migrateAvatarTables } from "../../../shared/avatar-tables/migrate.ts";
import {
  avatarEraseOrders,
  uploadAttestations,
  type AvatarState,
  type SourceKind,
  type UploadAttestationRow,
} from "../../../shared/avatar-tables/schema.ts";

/** `missing`: no token, no such attestation, or no shared database. `mismatch`: the bytes changed or are gone. */
export type ConsentCheck = "ok" | "missing" | "mismatch";

export interface AvatarObservation {
  /** The uploader's credential subject: the box's owner of the avatar. */
  subject: string;
  avatarId: string;
  /**
   * The person's e-mail, the portal library's partition. Default: the one in an `owner:<email>`
   * subject. A portal-created API key's subject (`key:<digest>`) carries none: pass the key row's
   * owner. Null leaves an e-mail recorded earlier in place.
   */
  owner?: string | null;
  /** Used only when the row is created: the library's `name` is fixed at creation. */
  name: string;
  sourceKind: SourceKind;
  state: AvatarState;
  detail?: string;
  consentId?: string | null;
  /** New bytes under this id (first upload or an overwrite): the row goes back to `private`. */
  upload?: boolean;
  /**
   * This upload replaced every file of the avatar on the volume and has never been listed. A
   * pending erase order was then made from the row of what it replaced (the portal orders only
   * from a listed row), and that is gone: the order is marked done and the row written.
   */
  replacesErased?: boolean;
}

/** `erase_pending`: the portal erased this avatar and the order is not drained yet; nothing written. */
export type ObserveResult = "written" | "erase_pending";

export interface EraseOrder {
  id: number;
  subject: string;
  avatarId: string;
  owner: string | null;
  orderedAt: number;
}

export interface SharedRecordsOptions {
  /** This box's region: the observations' `prepared_in_region`. Default `local`. */
  region?: string;
  /** The volume faces are prepared on: the observations' `weights_volume`. Default `local`. */
  volume?: string;
  /** Epoch seconds. */
  now?: () => number;
}

/** The e-mail in a portal-minted credential's subject (`owner:<email>`), else null. */
export function ownerEmailOf(subject: string): string | null {
  return subject.startsWith("owner:") && subject.length > "owner:".length ? subject.slice("owner:".length) : null;
}

export class SharedRecords {
  private readonly db: LibSQLDatabase;
  private readonly region: string;
  private readonly volume: string;
  private readonly now: () => number;

  constructor(
    private readonly client: Client,
    /** False: the tables live in box.db, where no portal ever writes an attestation or an order. */
    readonly shared: boolean,
    private readonly ownsClient: boolean,
    opts: SharedRecordsOptions = {},
  ) {
    this.db = drizzle(client);
    this.region = opts.region ?? "local";
    this.volume = opts.volume ?? "local";
    this.now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** This box, as an erase order's `done_by`. */
  get identity(): string {
    return `${this.region} ${this.volume}`;
  }

  /** The upload attestation behind a `consent_token`; always null without a shared database. */
  async attestation(consentId: string | null | undefined): Promise<UploadAttestationRow | null> {
    if (!this.shared || !consentId) return null;
    const rows = await guard("read an upload attestation", () =>
      this.db.select().from(uploadAttestations).where(eq(uploadAttestations.consentId, consentId)).limit(1),
    );
    return rows[0] ?? null;
  }

  /** Does the attestation cover these exact bytes? `bytesSha256` null: the photograph is gone. */
  async checkConsent(consentId: string | null | undefined, bytesSha256: string | null): Promise<ConsentCheck> {
    const row = await this.attestation(consentId);
    if (!row) return "missing";
    return bytesSha256 !== null && row.sha256.toLowerCase() === bytesSha256.toLowerCase() ? "ok" : "mismatch";
  }

  /**
   * Upsert what this box sees of an avatar. Keeps `created_at`, `name` and (unless `upload`) the
   * portal's `visibility`. Writes nothing while an erase order for it is pending, so a running box
   * cannot bring back a library row the portal just erased; drain the order first (or observe the
   * upload that replaced the erased files with `replacesErased`).
   */
  async observe(o: AvatarObservation): Promise<ObserveResult> {
    for (let attempt = 0; ; attempt++) {
      if ((await this.upsert(o)) > 0) return "written";
      // Bounded: a new order needs a listed row, and this avatar has none until an upsert lands.
      if (!o.replacesErased || attempt >= 2) return "erase_pending";
      await this.markEraseDoneFor(o.subject, o.avatarId);
    }
  }

  private async upsert(o: AvatarObservation): Promise<number> {
    const at = this.now();
    const owner = o.owner !== undefined ? o.owner : ownerEmailOf(o.subject);
    // One statement: the erase-order check and the upsert cannot be split by a portal write.
    const result = await guard("write an avatar observation", () =>
      this.db.run(sql`
        INSERT INTO avatar_observations (subject, avatar_id, owner, name, source_kind, state,
          prepared_in_region, weights_volume, detail, consent_id, visibility, created_at, updated_at)
        SELECT ${o.subject}, ${o.avatarId}, ${owner}, ${o.name}, ${o.sourceKind}, ${o.state},
          ${this.region}, ${this.volume}, ${o.detail ?? ""}, ${o.consentId ?? null}, 'private', ${at}, ${at}
        WHERE NOT EXISTS (SELECT 1 FROM avatar_erase_orders
          WHERE subject = ${o.subject} AND avatar_id = ${o.avatarId} AND done_at IS NULL)
        ON CONFLICT (subject, avatar_id) DO UPDATE SET
          owner = COALESCE(excluded.owner, owner), source_kind = excluded.source_kind, state = excluded.state,
          prepared_in_region = excluded.prepared_in_region, weights_volume = excluded.weights_volume,
          detail = excluded.detail, consent_id = excluded.consent_id, updated_at = excluded.updated_at,
          visibility = CASE WHEN ${o.upload ? 1 : 0} THEN 'private' ELSE visibility END`),
    );
    return result.rowsAffected;
  }

  /** Whether an erase order for this avatar waits to be drained: nothing of it may be archived. */
  async erasePending(subject: string, avatarId: string): Promise<boolean> {
    const t = avatarEraseOrders;
    const rows = await guard("read erase orders", () =>
      this.db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.subject, subject), eq(t.avatarId, avatarId), isNull(t.doneAt)))
        .limit(1),
    );
    return rows.length > 0;
  }

  /** Erase orders no box has drained yet, oldest first. */
  async pendingEraseOrders(): Promise<EraseOrder[]> {
    const t = avatarEraseOrders;
    return guard("read erase orders", () =>
      this.db
        .select({ id: t.id, subject: t.subject, avatarId: t.avatarId, owner: t.owner, orderedAt: t.orderedAt })
        .from(t)
        .where(isNull(t.doneAt))
        .orderBy(asc(t.orderedAt), asc(t.id)),
    );
  }

  /** Record that this box erased the prepared face; false when another box already did. */
  async markEraseDone(order: Pick<EraseOrder, "id">, by: string = this.identity): Promise<boolean> {
    const t = avatarEraseOrders;
    const result = await guard("mark an erase order done", () =>
      this.db
        .update(t)
        .set({ doneAt: this.now(), doneBy: by })
        .where(and(eq(t.id, order.id), isNull(t.doneAt)))
        .run(),
    );
    return result.rowsAffected > 0;
  }

  /** Marks this avatar's pending orders done (its files are gone from this volume); how many. */
  private async markEraseDoneFor(subject: string, avatarId: string): Promise<number> {
    const t = avatarEraseOrders;
    const result = await guard("mark an erase order done", () =>
      this.db
        .update(t)
        .set({ doneAt: this.now(), doneBy: this.identity })
        .where(and(eq(t.subject, subject), eq(t.avatarId, avatarId), isNull(t.doneAt)))
        .run(),
    );
    return result.rowsAffected;
  }

  /** Closes the shared database's client; box.db's client belongs to its opener. */
  close(): void {
    if (this.ownsClient) this.client.close();
  }
}

/**
 * Boot-time drain: `erase` removes the prepared face and its media from this volume (and must
 * succeed when there is nothing to remove); each order it finishes is marked done. An order whose
 * erase throws stays pending for the next boot; the others still go. Returns the orders marked.
 */
export async function drainEraseOrders(
  records: SharedRecords,
  erase: (order: EraseOrder) => Promise<void>,
  onError: (order: EraseOrder, err: unknown) => void = () => {},
): Promise<EraseOrder[]> {
  const done: EraseOrder[] = [];
  for (const order of await records.pendingEraseOrders()) {
    try {
      await erase(order);
      if (await records.markEraseDone(order)) done.push(order);
    } catch (err) {
      onError(order, err);
    }
  }
  return done;
}

/**
 * Opens the avatar tables for a box. With `keyTableUrl` (BOX_KEY_TABLE_URL) they are the shared
 * database's: a client of its own, migrated like the key table (both planes migrate; idempotent).
 * Without it they are kept in the box's own database (`local`, box.db's client, migrated beside
 * `__box_migrations`): observations stay on the box, no order ever arrives, and no attestation is
 * ever found, so photo clip generation is refused with `consent_required`.
 */
export async function openSharedRecords(
  keyTableUrl: string | null,
  local: Client,
  opts: SharedRecordsOptions = {},
): Promise<SharedRecords> {
  if (!keyTableUrl) {
    await migrateAvatarTables(local);
    return new SharedRecords(local, false, false, opts);
  }
  // Busy timeout: the portal writes the same file; WAL is set by the portal (portal/db/open.ts).
  const client = createClient({ url: keyTableUrl, timeout: 5000 });
  try {
    await migrateAvatarTables(client);
  } catch (err) {
    client.close();
    throw err;
  }
  return new SharedRecords(client, true, true, opts);
}

/** A store failure as the outbound failure callers retry on (docs/architecture.md "Conventions in the code"). */
async function guard<T>(what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw Object.assign(new UpstreamError(`could not ${what} in the avatar tables: ${reason}`, 503, true), { cause: err });
  }
}
