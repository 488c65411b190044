// Implements: Consent records (upload attestation), Avatar library record (what a box last
// observed), Avatar erasure `status` (the `prepared_avatar` order a box drains at its next boot).
// Tables of the shared database (docs/architecture.md "The shared database"). Writers, per column:
//   upload_attestations   portal writes (POST /auth/consent); box only reads.
//   avatar_observations   box writes every column but `visibility`; the portal writes `visibility`
//                         and deletes the row on erasure. The box's upsert never touches
//                         `visibility` except to put a re-uploaded face back to `private`.
//   avatar_erase_orders   portal inserts (DELETE /auth/avatars/{id}); box sets `done_at`/`done_by`.
// Enumerations are typed here, not CHECKed in SQL: SQLite cannot alter a CHECK without rebuilding
// the table, and two planes of different ages may share one database.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from "drizzle-orm/sqlite-core";

/** What an avatar was made from (Avatar library record `source_kind`). */
export const SOURCE_KINDS = ["photo", "image", "video", "unknown"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** What an upload attestation may name (`POST /auth/consent` `source_kind`, default `image`). */
export const ATTESTED_SOURCE_KINDS = ["photo", "image", "video"] as const;
export type AttestedSourceKind = (typeof ATTESTED_SOURCE_KINDS)[number];
/** Avatar library `state`: the last state a box observed. */
export const AVATAR_STATES = ["preparing", "ready", "failed"] as const;
export type AvatarState = (typeof AVATAR_STATES)[number];
export const VISIBILITIES = ["private", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Upload attestation: evidence that a person agreed to these exact bytes. Carries no owner (spec). */
export const uploadAttestations = sqliteTable("upload_attestations", {
  /** Opaque id; handed to the client as `consent_token`, looked up by the box by primary key. */
  consentId: text("consent_id").primaryKey(),
  /** Lower-case hex SHA-256 of the exact bytes agreed to. */
  sha256: text("sha256").notNull(),
  attestedAt: integer("attested_at").notNull(),
  sourceKind: text("source_kind", { enum: ATTESTED_SOURCE_KINDS }).notNull().default("image"),
});

/**
 * What a box last saw of one avatar, the rows of the portal's library. Keyed by the box's own
 * ownership unit (credential subject + avatar id): avatar ids come from filenames, so two people's
 * `alice` are two rows, and so are two credentials' of one person (two avatars on the box too).
 */
export const avatarObservations = sqliteTable(
  "avatar_observations",
  {
    /** The uploader's credential subject on the box: `owner:<email>`, `key:<digest>`, `open`. */
    subject: text("subject").notNull(),
    avatarId: text("avatar_id").notNull(),
    /** E-mail identity of the person (the library's partition); null when the subject has none. */
    owner: text("owner"),
    /** Fixed at creation: a later observation never changes it. */
    name: text("name").notNull(),
    sourceKind: text("source_kind", { enum: SOURCE_KINDS }).notNull().default("unknown"),
    state: text("state", { enum: AVATAR_STATES }).notNull(),
    preparedInRegion: text("prepared_in_region").notNull().default(""),
    weightsVolume: text("weights_volume").notNull().default(""),
    detail: text("detail").notNull().default(""),
    /** The upload attestation the face was accepted with; null for none (video, or consent never reached the box). */
    consentId: text("consent_id"),
    /** Written by the portal (PUT /auth/avatars/{id}/visibility); `public` rows are the public partition. */
    visibility: text("visibility", { enum: VISIBILITIES }).notNull().default("private"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.subject, t.avatarId] }),
    // GET /auth/avatars (one person's rows) and the per-id portal routes.
    index("avatar_observations_owner").on(t.owner, t.avatarId),
    // GET /auth/avatars/public.
    index("avatar_observations_public").on(t.createdAt).where(sql`visibility = 'public'`),
  ],
);

/**
 * The `prepared_avatar` artefact of an erasure: the portal records it, the next box to boot
 * deletes that prepared face and its media from its volume and marks the order done. Rows are
 * kept after that: a repeated DELETE answers `complete` from them once the library row is gone.
 */
export const avatarEraseOrders = sqliteTable(
  "avatar_erase_orders",
  {
    id: integer("id").primaryKey(),
    /** Copied from the observation: the box finds the face by (subject, avatar id). */
    subject: text("subject").notNull(),
    avatarId: text("avatar_id").notNull(),
    /** E-mail of the person who ordered it: the portal answers the erase status by (owner, avatar id). */
    owner: text("owner"),
    orderedAt: integer("ordered_at").notNull(),
    /** Null until a box drained the order. */
    doneAt: integer("done_at"),
    /** Which box drained it (region and volume). */
    doneBy: text("done_by"),
  },
  (t) => [
    // At most one pending order per avatar: a double erasure adds none (ON CONFLICT DO NOTHING),
    // and the box's drain reads exactly this index.
    uniqueIndex("avatar_erase_orders_pending").on(t.subject, t.avatarId).where(sql`done_at IS NULL`),
    index("avatar_erase_orders_owner").on(t.owner, t.avatarId),
  ],
);

export type UploadAttestationRow = typeof uploadAttestations.$inferSelect;
export type NewUploadAttestationRow = typeof uploadAttestations.$inferInsert;
export type AvatarObservationRow = typeof avatarObservations.$inferSelect;
export type AvatarEraseOrderRow = typeof avatarEraseOrders.$inferSelect;
export type NewAvatarEraseOrderRow = typeof avatarEraseOrders.$inferInsert;
