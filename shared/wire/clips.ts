// Implements: the clip rows and answers of GET /api/avatar/clips and POST /api/avatar/clips/retry
// (Box: avatars and clips; Clip `state`), as TypeBox schemas for the box's routes and types for
// the client library.
import { type Static, Type } from "@sinclair/typebox";

export const ClipRow = Type.Object({
  tone: Type.String(),
  state: Type.String(),
  variant_id: Type.String(),
  duration_s: Type.Number(),
  updated_at: Type.Integer(),
  detail: Type.String(),
});
export type ClipRow = Static<typeof ClipRow>;

export const ClipList = Type.Object({ avatar: Type.String(), clips: Type.Array(ClipRow) });
export type ClipList = Static<typeof ClipList>;

export const ClipRetryBody = Type.Object({ avatar: Type.String(), tone: Type.String() });
export type ClipRetryBody = Static<typeof ClipRetryBody>;

export const ClipRetryAnswer = Type.Object({
  avatar: Type.String(),
  tone: Type.String(),
  variant_id: Type.String(),
  state: Type.Literal("generating"),
});
export type ClipRetryAnswer = Static<typeof ClipRetryAnswer>;
