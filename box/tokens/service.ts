// Implements: Box: tokens and readiness — POST /v1/streaming.create_token; Resources: Session token.
import { ApiError } from "../../shared/errors/api-error.ts";
import { newSecret } from "../../shared/key-table/secrets.ts";
import { sha256Hex, type Principal } from "../auth/principal.ts";
import type { KeyTable } from "../auth/key-table.ts";

export const TTL_DEFAULT = 300;
export const TTL_MIN = 30;
export const TTL_MAX = 600;

/**
 * `ttl_seconds` (or its alias `ttl`, read only when `ttl_seconds` is absent): default 300 only when
 * both are absent; fractions are floored, then clamped to 30..600. A present non-number (null
 * included) or a non-finite number (`1e999`) is refused rather than silently defaulted.
 */
export function ttlFrom(body: Record<string, unknown>): number {
  const raw = Object.hasOwn(body, "ttl_seconds") ? body.ttl_seconds : body.ttl;
  if (raw === undefined) return TTL_DEFAULT;
  if (typeof raw !== "number" || !Number.isFinite(raw)) {
    throw new ApiError(400, "invalid_body", "ttl_seconds must be a number of seconds.", "unwrapped");
  }
  return Math.min(TTL_MAX, Math.max(TTL_MIN, Math.floor(raw)));
}

export interface MintedToken {
  token: string;
  expires_at: number;
  scope: "tts";
}

export async function mintSessionToken(
  keyTable: KeyTable | null,
  minter: Principal,
  ttl: number,
  now = Math.floor(Date.now() / 1000),
): Promise<MintedToken> {
  if (!keyTable) {
    throw new ApiError(400, "auth_disabled", "Session tokens need a key table; this box has none configured.", "unwrapped");
  }
  if (minter.scope !== "full" || !minter.digest) {
    throw new ApiError(401, "insufficient_scope", "A session token cannot mint another token; use a full API key.", "unwrapped");
  }
  const token = newSecret("session_token");
  // The token dies with its minter (checked on every request), so it never reports a later end.
  const expires_at = minter.expiresAt === null ? now + ttl : Math.min(minter.expiresAt, now + ttl);
  try {
    await keyTable.insert({
      id: sha256Hex(token),
      kind: "session_token",
      scope: "tts",
      owner: minter.kind === "session_credential" ? minter.subject.slice("owner:".length) : null,
      parentId: minter.digest,
      createdAt: now,
      expiresAt: expires_at,
    });
  } catch (err) {
    throw new ApiError(503, "mint_failed", `The key store could not issue a token: ${(err as Error).message}`, "unwrapped");
  }
  return { token, expires_at, scope: "tts" };
}
