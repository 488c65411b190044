// Implements: Consent records (publication consent). The consent ledger: one row per agreement a
// person recorded to publish one avatar. It may live in its own database (PORTAL_LEDGER_URL), so it
// has its own migrations (`__ledger_migrations`, see migrate.ts); by default it sits in the portal's.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

export const publicationConsents = sqliteTable(
  "publication_consents",
  {
    /** Opaque random id (`pc_` + 32 alphanumerics): the record's `attestation_id`. */
    attestationId: text("attestation_id").primaryKey(),
    /** E-mail identity of the person who agreed: the same partition as the library's `owner`. */
    owner: text("owner").notNull(),
    avatarId: text("avatar_id").notNull(),
    termsVersion: text("terms_version").notNull(),
    /** Hex SHA-256 of the exact UTF-8 terms text agreed to. */
    termsSha256: text("terms_sha256").notNull(),
    attestedAt: integer("attested_at").notNull(),
    /** When the person withdrew (made the avatar private, or erased it); null while it stands. */
    withdrawnAt: integer("withdrawn_at"),
  },
  (t) => [index("publication_consents_owner_avatar").on(t.owner, t.avatarId)],
);

export type PublicationConsentRow = typeof publicationConsents.$inferSelect;
