// The two reads on the hot path of `/auth/*` (session behind a cookie, the caller's key list). The
// drizzle stores answer them by default; a Bun entry on a local `file:` database passes faster
// ones (bun:sqlite prepared statements) with the same answers. No cache either way: a logout or a
// revocation is seen by the very next request.
export interface KeyListRow {
  id: string;
  name: string | null;
  hint: string | null;
  last4: string | null;
  createdAt: number;
  createdBy: string | null;
  revokedAt: number | null;
  revokedBy: string | null;
}

export interface HotReads {
  /** The e-mail of the session with this id while `expires_at > now`, else null. */
  sessionEmail(id: string, now: number): string | null | Promise<string | null>;
  /** The owner's API keys (kind `api_key`), oldest first. */
  listKeys(owner: string): KeyListRow[] | Promise<KeyListRow[]>;
  close?(): void;
}

export const SESSION_EMAIL_SQL = "SELECT email FROM portal_sessions WHERE id = ? AND expires_at > ?";
export const LIST_KEYS_SQL = `SELECT id, name, hint, last4, created_at AS createdAt, created_by AS createdBy,
  revoked_at AS revokedAt, revoked_by AS revokedBy
  FROM credentials WHERE owner = ? AND kind = 'api_key' ORDER BY created_at, rowid`;
