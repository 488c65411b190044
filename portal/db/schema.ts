// Implements: Authentication: Plane B (the portal's own tables: sign-in links and sessions).
// Tokens are never stored: each row's id is the SHA-256 digest (hex) of the token it stands for.
import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

/** Magic links: single use (`usedAt`), short-lived (`expiresAt`), counted per address for the rate limit. */
export const signInLinks = sqliteTable(
  "sign_in_links",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** Same-origin path to land on after sign-in. */
    next: text("next").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("sign_in_links_email_created").on(t.email, t.createdAt)],
);

/** Portal sessions behind the session cookie; logout deletes the row, so a replayed cookie is refused. */
export const portalSessions = sqliteTable(
  "portal_sessions",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** `link` or `id_token`: how the person proved the address. */
    method: text("method").notNull(),
  },
  (t) => [index("portal_sessions_expires").on(t.expiresAt)],
);

/**
 * Voice settings: each person's hosted-provider keys, sealed with AES-256-GCM under a key derived
 * from PORTAL_SECRET (shared/voice-keys/crypto.ts documents the scheme, so a box holding the derived key
 * can open them). Only `last4` is kept in the clear; a rejected key never gets a row.
 */
export const voiceKeys = sqliteTable(
  "voice_keys",
  {
    /** The signed-in e-mail address, as in `credentials.owner`; bound into the AEAD associated data. */
    owner: text("owner").notNull(),
    /** `elevenlabs` or `cartesia`; also bound into the associated data. */
    provider: text("provider").notNull(),
    /** Which derived key sealed the row (`v1:<16 hex>`). */
    keyId: text("key_id").notNull(),
    /** base64url, 12 random bytes, fresh on every write. */
    nonce: text("nonce").notNull(),
    /** base64url of ciphertext followed by the 16-byte tag. */
    ciphertext: text("ciphertext").notNull(),
    last4: text("last4").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** When the provider accepted the key; null means never checked. */
    validatedAt: integer("validated_at"),
  },
  (t) => [primaryKey({ columns: [t.owner, t.provider] })],
);

/** Voice settings: the engine each person chose; no row means the built-in engine (`espeak`). */
export const voiceEngineChoices = sqliteTable("voice_engine_choices", {
  owner: text("owner").primaryKey(),
  /** `espeak`, or a hosted provider that has a `voice_keys` row for the same owner. */
  engine: text("engine").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Portraits (portal/portraits/): one generated image per row, its bytes in the asset store under
 * `storage_key`, never rewritten. Approval binds an upload attestation (`consent_id`, a row of the
 * shared `upload_attestations`) to `sha256`; the row is never deleted by approving or regenerating.
 */
export const portraits = sqliteTable(
  "portraits",
  {
    portraitId: text("portrait_id").primaryKey(),
    /** The signed-in e-mail address; never in an answer. */
    owner: text("owner").notNull(),
    description: text("description").notNull(),
    /** Lower-case hex SHA-256 of the exact stored bytes. */
    sha256: text("sha256").notNull(),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** `embedded` or `image_provider`. */
    generator: text("generator").notNull(),
    /** The drawing seed (embedded) or null. */
    seed: integer("seed"),
    /** The provider's model (image_provider) or null. */
    model: text("model"),
    storageKey: text("storage_key").notNull(),
    createdAt: integer("created_at").notNull(),
    approvedAt: integer("approved_at"),
    consentId: text("consent_id"),
    regeneratedFrom: text("regenerated_from"),
  },
  (t) => [index("portraits_owner").on(t.owner, t.createdAt)],
);

/**
 * GPU launch lease (portal/gpu/lease-store.ts): one row per deployment while a launch is in flight
 * or just made, written only by conditional statements, so two portal workers (processes, edge
 * isolates) on one database cannot both launch. `token` is the RunInstances ClientToken: a retry
 * of a launch whose answer was lost reuses it, and EC2 answers the box it already made.
 */
export const gpuLaunchLeases = sqliteTable("gpu_launch_leases", {
  /** The driver's deployment (`ec2:<deployment tag>`). */
  deployment: text("deployment").primaryKey(),
  token: text("token").notNull(),
  /** Which portal worker holds it (for whoever reads the table). */
  holder: text("holder").notNull(),
  region: text("region").notNull(),
  instanceType: text("instance_type").notNull(),
  /** `launching`, `launched` (instance_id set) or `unanswered` (EC2 may or may not have made it). */
  outcome: text("outcome").notNull(),
  instanceId: text("instance_id"),
  acquiredAt: integer("acquired_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

export type SignInLinkRow = typeof signInLinks.$inferSelect;
export type PortalSessionRow = typeof portalSessions.$inferSelect;
export type VoiceKeyRow = typeof voiceKeys.$inferSelect;
export type PortraitRow = typeof portraits.$inferSelect;
