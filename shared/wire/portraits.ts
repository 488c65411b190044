// Implements: Consent records: the Portrait record (its fields are this project's choice,
// docs/api-notes.md "Portal: Portraits"), as `/auth/portraits*` answer it and the studio reads it.
import { Type, type Static } from "@sinclair/typebox";
import { PORTRAIT_ID } from "../asset-layout/asset-keys.ts";

export const PORTRAIT_GENERATORS = ["embedded", "image_provider"] as const;
export type PortraitGeneratorKind = (typeof PORTRAIT_GENERATORS)[number];
export const PORTRAIT_CONTENT_TYPES = ["image/png", "image/jpeg"] as const;
export type PortraitContentType = (typeof PORTRAIT_CONTENT_TYPES)[number];

const oneOf = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** The portrait record: no owner, no storage key. */
export const PortraitRecord = Type.Object({
  portrait_id: Type.String({ pattern: PORTRAIT_ID.source }),
  description: Type.String(),
  sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  content_type: oneOf(PORTRAIT_CONTENT_TYPES),
  width: Type.Integer({ minimum: 1 }),
  height: Type.Integer({ minimum: 1 }),
  size_bytes: Type.Integer({ minimum: 1 }),
  generator: oneOf(PORTRAIT_GENERATORS),
  created_at: Type.Integer(),
  approved_at: Nullable(Type.Integer()),
  consent_id: Nullable(Type.String()),
  regenerated_from: Nullable(Type.String({ pattern: PORTRAIT_ID.source })),
  url: Type.String(),
});
export type PortraitRecord = Static<typeof PortraitRecord>;
