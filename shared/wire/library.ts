// Implements: Resources: Avatar library record (portal), Avatar erase result: what the portal
// answers on `/auth/avatars*` and the studio's Avatars page and pickers read.
import { Type, type Static } from "@sinclair/typebox";
import { AVATAR_STATES, SOURCE_KINDS, VISIBILITIES } from "../avatar-tables/schema.ts";

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
