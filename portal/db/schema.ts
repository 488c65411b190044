// Implements: Authentication: Plane B (the portal's own tables: sign-in links and sessions).
// Tokens are never stored: each row's id is the SHA-256 digest (hex) of the token it stands for.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

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

export type SignInLinkRow = typeof signInLinks.$inferSelect;
export type PortalSessionRow = typeof portalSessions.$inferSelect;
