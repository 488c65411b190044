// Implements: the avatar library's ids and refusals (the records themselves: shared/wire/library.ts).
import { ApiError } from "../../shared/errors/api-error.ts";

/** Path literals beside `/auth/avatars/{id}`: never an avatar id on the portal's DELETE (erase them on the box). */
export const RESERVED_AVATAR_IDS: ReadonlySet<string> = new Set(["tones", "public", "publication-terms"]);

/** Longest id looked up; box ids are at most 64 characters. */
const MAX_ID = 128;

/**
 * The id as looked up, or null when no library row can have it (then the answer is the same 404
 * as a missing row, without a query): empty, too long, a slash (a decoded `%2F`), a dot segment,
 * or control characters. Anything else, unicode included, is simply looked up.
 */
export function addressableAvatarId(raw: string | undefined): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_ID) return null;
  if (raw === "." || raw === ".." || raw.includes("/") || /[\p{Cc}\u2028\u2029]/u.test(raw)) return null;
  return raw;
}

/** As `addressableAvatarId`, and not one of the reserved path literals (`DELETE /auth/avatars/{id}`). */
export function erasableAvatarId(raw: string | undefined): string | null {
  const id = addressableAvatarId(raw);
  return id !== null && !RESERVED_AVATAR_IDS.has(id) ? id : null;
}

/** Not yours and missing are one answer (fact 8). */
export function avatarNotFound(): ApiError {
  return new ApiError(404, "avatar_not_found", "No such avatar in your library.");
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
