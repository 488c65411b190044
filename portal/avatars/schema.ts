// Implements: Resources: Avatar library record (portal), Avatar erase result.
import { Type, type Static } from "@sinclair/typebox";
import { ApiError } from "../../shared/errors/api-error.ts";
import { AVATAR_STATES, SOURCE_KINDS, VISIBILITIES } from "../../shared/avatar-tables/schema.ts";

const oneOf = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const LibraryRecord = Type.Object({
  avatar_id: Type.String(),
  name: Type.String(),
  source_kind: oneOf(SOURCE_KINDS),
  state: oneOf(AVATAR_STATES),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  prepared_in_region: Type.String(),
  weights_volume: Type.String(),
  detail: Type.String(),
  visibility: oneOf(VISIBILITIES),
});
export type LibraryRecord = Static<typeof LibraryRecord>;

export const PublicLibraryRecord = Type.Intersect([LibraryRecord, Type.Object({ mine: Type.Boolean() })]);
export type PublicLibraryRecord = Static<typeof PublicLibraryRecord>;

/** Artefact names of an erasure, in the order they are listed. */
export const ERASE_ARTEFACTS = ["registry_record", "public_listing", "archived_media", "prepared_avatar"] as const;
export type EraseArtefact = (typeof ERASE_ARTEFACTS)[number];

export const EraseResult = Type.Object({
  avatar_id: Type.String(),
  status: Type.Union([Type.Literal("pending"), Type.Literal("complete")]),
  erased: Type.Array(oneOf(ERASE_ARTEFACTS)),
  pending: Type.Array(oneOf(ERASE_ARTEFACTS)),
});
export type EraseResult = Static<typeof EraseResult>;

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
