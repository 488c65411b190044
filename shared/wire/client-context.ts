// Implements: `client_context` of POST /connect, the shape a client sends: four per-session facts
// (field names our choice, see docs/api-notes.md). The box validates each on its own
// (box/live/client-context.ts) and keeps it on the live session only, never persisted.

export interface ClientContext {
  /** IANA time zone, e.g. "Australia/Sydney". */
  timezone?: string;
  /** What to call the person. */
  name?: string;
  /** Where they are, in words ("Melbourne, Australia"). */
  location?: string;
  /** BCP 47 locale, e.g. "en-AU". */
  locale?: string;
}
