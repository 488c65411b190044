// Implements: Endpoints `GET /auth/avatars`, `GET /auth/avatars/public`,
// `PUT /auth/avatars/{id}/visibility`, `DELETE /auth/avatars/{id}`; States: Avatar visibility,
// Avatar erasure `status`. The acting e-mail identity is the partition: every query names it.
import { ApiError } from "../../shared/errors/api-error.ts";
import type { PublicationLedger } from "../consent/ledger.ts";
import type { WithdrawalLog } from "../consent/withdrawal-log.ts";
import type { ArchivedMedia } from "./archived-media.ts";
import { addressableAvatarId, avatarNotFound, erasableAvatarId, isObject } from "./schema.ts";
import type { EraseArtefact, EraseResult, LibraryRecord, PublicLibraryRecord } from "../../shared/wire/library.ts";
import { LibraryBodyCache } from "./library-cache.ts";
import type { LibraryRow, LibraryStore } from "./store.ts";

export interface AvatarLibraryServiceOptions {
  store: LibraryStore;
  ledger: PublicationLedger;
  withdrawals: WithdrawalLog;
  archivedMedia: ArchivedMedia;
  /** Epoch seconds. */
  now: () => number;
  log?: (msg: string, err?: unknown) => void;
}

export function toRecord(row: LibraryRow): LibraryRecord {
  return {
    avatar_id: row.avatarId,
    name: row.name,
    source_kind: row.sourceKind,
    state: row.state,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    prepared_in_region: row.preparedInRegion,
    weights_volume: row.weightsVolume,
    detail: row.detail,
    visibility: row.visibility,
  };
}

// The public partition names no person: an e-mail address that a file name or a box's note
// carried into a text field is masked.
const EMAIL = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+/g;
const mask = (s: string) => (s.includes("@") ? s.replace(EMAIL, "[address hidden]") : s);

export class AvatarLibraryService {
  readonly #bodies = new LibraryBodyCache();

  constructor(private readonly opts: AvatarLibraryServiceOptions) {}

  async list(owner: string): Promise<LibraryRecord[]> {
    return (await this.opts.store.list(owner)).map(toRecord);
  }

  /**
   * The `GET /auth/avatars` body, JSON. Kept per person while the store's data version stands
   * (read before the rows, so a commit in between only makes the next request read again); never
   * kept when the store has no version to offer.
   */
  async listBody(owner: string): Promise<string> {
    const version = this.opts.store.dataVersion();
    if (version === null) return JSON.stringify({ avatars: await this.list(owner) });
    const kept = this.#bodies.get(owner, version);
    if (kept !== undefined) return kept;
    const body = JSON.stringify({ avatars: await this.list(owner) });
    this.#bodies.set(owner, version, body);
    return body;
  }

  async listPublic(caller: string): Promise<PublicLibraryRecord[]> {
    return (await this.opts.store.listPublic()).map(({ owner, ...row }) => {
      const r = toRecord(row);
      return {
        ...r,
        name: mask(r.name),
        detail: mask(r.detail),
        prepared_in_region: mask(r.prepared_in_region),
        weights_volume: mask(r.weights_volume),
        mine: owner === caller,
      };
    });
  }

  /** Does this person have a library row for this avatar id? */
  async owns(owner: string, avatarId: string): Promise<boolean> {
    return (await this.opts.store.find(owner, avatarId)) !== null;
  }

  /** `body`: the parsed JSON, or undefined when there was none or it was not JSON. */
  async setVisibility(owner: string, rawId: string, body: unknown): Promise<LibraryRecord> {
    const avatarId = addressableAvatarId(rawId);
    if (avatarId === null) throw avatarNotFound();
    const visibility = isObject(body) ? body.visibility : undefined;
    if (visibility !== "public" && visibility !== "private") {
      throw new ApiError(400, "invalid_visibility", "`visibility` must be `public` or `private`.");
    }
    if (visibility === "private") {
      // Always allowed, ledger or not: the withdrawal is logged with the change and reaches the ledger later.
      const changed = await this.opts.store.makePrivate(owner, avatarId, this.opts.now());
      if (changed === 0) throw avatarNotFound();
      await this.opts.ledger.tryFlush();
    } else {
      const current = await this.opts.store.find(owner, avatarId);
      if (!current) throw avatarNotFound();
      if (current.visibility !== "public") await this.#publish(owner, avatarId);
    }
    const row = await this.opts.store.find(owner, avatarId);
    if (!row) throw avatarNotFound();
    return toRecord(row);
  }

  async #publish(owner: string, avatarId: string): Promise<void> {
    // Remember the log's end before reading the ledger: a withdrawal logged after it (a racing
    // `private` or erasure) makes the flip below change nothing.
    const since = await this.opts.withdrawals.latestId();
    if (!(await this.opts.ledger.hasAgreement(owner, avatarId))) throw consentRequired();
    if ((await this.opts.store.makePublic(owner, avatarId, since)) > 0) return;
    if (!(await this.owns(owner, avatarId))) throw avatarNotFound();
    throw consentRequired();
  }

  /**
   * Erases the library rows, the public listing and the archived media now, and orders the box
   * to erase the prepared face. A repeat answers from the orders: `complete` once boxes drained them.
   */
  async erase(owner: string, rawId: string): Promise<EraseResult> {
    const avatarId = erasableAvatarId(rawId);
    if (avatarId === null) throw avatarNotFound();
    const erasedSubjects = await this.opts.store.erase(owner, avatarId, this.opts.now());
    const orders = await this.opts.store.eraseOrders(owner, avatarId);
    if (erasedSubjects.length === 0 && orders.total === 0) throw avatarNotFound();

    const pending: EraseArtefact[] = [];
    const erased: EraseArtefact[] = ["registry_record", "public_listing"];
    try {
      // Idempotent by contract: a repeat retries it, so a failure now is finished by the next request.
      await this.opts.archivedMedia.erase(owner, avatarId, [...new Set([...erasedSubjects, ...orders.subjects])]);
      erased.push("archived_media");
    } catch (err) {
      this.opts.log?.(`portal: archived media of ${avatarId} not erased yet (repeat the DELETE)`, err);
      pending.push("archived_media");
    }
    if (orders.pending > 0) pending.push("prepared_avatar");
    else erased.push("prepared_avatar");
    if (erasedSubjects.length > 0) await this.opts.ledger.tryFlush();
    return { avatar_id: avatarId, status: pending.length > 0 ? "pending" : "complete", erased, pending };
  }
}

function consentRequired(): ApiError {
  return new ApiError(
    409,
    "publication_consent_required",
    "Publishing needs your recorded agreement to the publication terms first (POST /auth/avatars/{id}/publication-consent).",
  );
}
