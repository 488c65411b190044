// Implements: Authentication: Plane A, points 2, 4, 5 (credential kinds, scopes, expiry on every request).
import { createHash } from "node:crypto";
import { ApiError } from "../../shared/errors/api-error.ts";
import type { KeyTable, KeyRecord } from "./key-table.ts";

export type Scope = "full" | "tts";

/** Who is calling. `subject` partitions settings and conversations (one record per credential). */
export interface Principal {
  subject: string;
  scope: Scope;
  /** Digest of the presented secret (null on an open box). */
  digest: string | null;
  kind: "open" | "configured_key" | "api_key" | "session_token" | "session_credential";
  expiresAt: number | null;
}

export const OPEN_PRINCIPAL: Principal = { subject: "open", scope: "full", digest: null, kind: "open", expiresAt: null };

export function sha256Hex(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

const invalid = () => new ApiError(401, "invalid_api_key", "The API key is not recognised or has expired.", "unwrapped");

export class Authenticator {
  private readonly configured: Set<string>;
  constructor(
    apiKeys: string[],
    readonly keyTable: KeyTable | null,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.configured = new Set(apiKeys.map(sha256Hex));
  }

  get open(): boolean {
    return this.configured.size === 0 && !this.keyTable;
  }

  /** Resolve a presented secret; throws 401 `invalid_api_key` for unknown, revoked or expired. */
  async resolve(secret: string): Promise<Principal> {
    const digest = sha256Hex(secret);
    if (this.configured.has(digest)) return { subject: `key:${digest}`, scope: "full", digest, kind: "configured_key", expiresAt: null };
    if (!this.keyTable) throw invalid();
    const row = await this.keyTable.lookup(digest);
    if (!row) throw invalid();
    return this.fromRow(digest, row);
  }

  /**
   * Where a credential frozen on a socket stands now: an aged-out one only needs renewal, a
   * revoked (or deleted) one ends the session. A token minted by a revoked credential is revoked.
   */
  async status(secret: string): Promise<"live" | "expired" | "revoked"> {
    const digest = sha256Hex(secret);
    if (this.open || this.configured.has(digest)) return "live";
    const row = this.keyTable ? await this.keyTable.lookup(digest) : null;
    if (!row || row.revoked_at !== null) return "revoked";
    const now = this.now();
    if (row.kind === "session_token") {
      const parentKnown = row.p_kind !== null || (row.parent_id !== null && this.configured.has(row.parent_id));
      if (!parentKnown || row.p_revoked_at !== null) return "revoked";
      if (row.p_expires_at !== null && row.p_expires_at <= now) return "expired";
    }
    return row.expires_at !== null && row.expires_at <= now ? "expired" : "live";
  }

  private fromRow(digest: string, row: KeyRecord): Principal {
    const now = this.now();
    const live = (revoked: number | null, expires: number | null) => revoked === null && (expires === null || expires > now);
    if (!live(row.revoked_at, row.expires_at)) throw invalid();
    if (row.kind === "session_token") {
      // A token lives only while the credential that minted it does.
      const parent = row.parent_id;
      if (!parent) throw invalid();
      const parentLive = row.p_kind ? live(row.p_revoked_at, row.p_expires_at) : this.configured.has(parent);
      if (!parentLive) throw invalid();
      const subject = row.p_kind === "session_credential" && row.p_owner ? `owner:${row.p_owner}` : `key:${parent}`;
      return { subject, scope: "tts", digest, kind: "session_token", expiresAt: row.expires_at };
    }
    if (row.scope !== "full") throw invalid();
    if (row.kind === "session_credential" && row.owner) {
      return { subject: `owner:${row.owner}`, scope: "full", digest, kind: "session_credential", expiresAt: row.expires_at };
    }
    if (row.kind === "api_key") return { subject: `key:${digest}`, scope: "full", digest, kind: "api_key", expiresAt: row.expires_at };
    throw invalid();
  }
}
