// Implements: Resources: API key record (portal); Endpoints: `/auth/keys`.
import { Type, type Static } from "@sinclair/typebox";

/** Keys per developer, revoked ones included (Limits). */
export const KEY_LIMIT = 100;
/** Longest key label we keep, in characters. */
export const KEY_NAME_MAX = 100;

export const ApiKeyRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  hint: Type.String(),
  last4: Type.String(),
  created_at: Type.Integer(),
  created_by: Type.String(),
  revoked: Type.Boolean(),
  revoked_at: Type.Union([Type.Integer(), Type.Null()]),
  revoked_by: Type.Union([Type.String(), Type.Null()]),
});
export type ApiKeyRecord = Static<typeof ApiKeyRecord>;

export const CreatedApiKey = Type.Intersect([ApiKeyRecord, Type.Object({ secret: Type.String() })]);
export type CreatedApiKey = Static<typeof CreatedApiKey>;
