// Implements: Endpoints: `GET/POST /auth/keys`, `DELETE /auth/keys/{id}`; Authentication: Plane A 8
// (the secret appears once, in the create response; the list id is its digest).
import { ApiError } from "../../shared/errors/api-error.ts";
import { digestSecret, hintOf, newSecret } from "../../shared/key-table/secrets.ts";
import { KEY_LIMIT, KEY_NAME_MAX, type ApiKeyRecord, type CreatedApiKey } from "./schema.ts";
import type { KeyRow, KeyStore } from "./store.ts";

export interface KeyServiceOptions {
  store: KeyStore;
  now: () => number;
  limit?: number;
}

/** A label: a string of 1 to 100 characters after trimming, with no control characters. */
export function validKeyName(name: unknown): string | null {
  if (typeof name !== "string") return null;
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > KEY_NAME_MAX) return null;
  if (/[\p{Cc}\u2028\u2029]/u.test(trimmed)) return null;
  return trimmed;
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name ?? "",
    hint: row.hint ?? "",
    last4: row.last4 ?? "",
    created_at: row.createdAt,
    created_by: row.createdBy ?? "",
    revoked: row.revokedAt !== null,
    revoked_at: row.revokedAt,
    revoked_by: row.revokedBy,
  };
}

export class KeyService {
  constructor(private readonly opts: KeyServiceOptions) {}

  async list(owner: string): Promise<ApiKeyRecord[]> {
    return (await this.opts.store.list(owner)).map(toRecord);
  }

  async create(owner: string, rawName: unknown): Promise<CreatedApiKey> {
    const name = validKeyName(rawName);
    if (name === null) {
      throw new ApiError(400, "invalid_name", `The key needs a name: 1 to ${KEY_NAME_MAX} characters, no control characters.`);
    }
    const secret = newSecret("api_key");
    const { hint, last4 } = hintOf(secret);
    const row = { id: await digestSecret(secret), name, hint, last4, owner, createdAt: Math.floor(this.opts.now() / 1000) };
    const limit = this.opts.limit ?? KEY_LIMIT;
    if (!(await this.opts.store.createWithinLimit(row, limit))) {
      throw new ApiError(409, "key_limit_reached", `You already hold ${limit} keys; revoked keys count towards the limit.`);
    }
    return { ...toRecord({ ...row, createdBy: owner, revokedAt: null, revokedBy: null }), secret };
  }

  async revoke(owner: string, id: string): Promise<void> {
    const outcome = /^[0-9a-f]{64}$/.test(id) ? await this.opts.store.revoke(owner, id, Math.floor(this.opts.now() / 1000)) : "missing";
    if (outcome === "missing") throw new ApiError(404, "key_not_found", "No such key of yours.");
  }
}
