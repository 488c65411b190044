// Implements: Authentication: Plane A (the key table shared by portal and box).
// Secrets are never stored: `id` is the SHA-256 digest (hex) of the secret.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

export const credentials = sqliteTable(
  "credentials",
  {
    /** SHA-256 hex digest of the secret; also the API key record's `id`. */
    id: text("id").primaryKey(),
    /** `api_key` (portal-created full key), `session_token` (box-minted, tts), `session_credential` (portal-minted, full). */
    kind: text("kind").notNull(),
    /** `full` or `tts`. */
    scope: text("scope").notNull(),
    name: text("name"),
    hint: text("hint"),
    last4: text("last4"),
    /** E-mail identity that owns it; null for tokens minted by a box-configured key. */
    owner: text("owner"),
    /** For a session token: the digest of the credential that minted it (the token shares its settings subject). */
    parentId: text("parent_id"),
    createdAt: integer("created_at").notNull(),
    createdBy: text("created_by"),
    /** Epoch seconds; null means it never expires. */
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    revokedBy: text("revoked_by"),
  },
  (t) => [index("credentials_owner_kind").on(t.owner, t.kind), index("credentials_expires").on(t.expiresAt)],
);

export type CredentialRow = typeof credentials.$inferSelect;
export type NewCredentialRow = typeof credentials.$inferInsert;
