// Implements: the box's avatar rows, GET /api/avatars (loaded avatars, groups with tones) and
// GET /api/videos (video rows), as TypeBox models: the box's routes declare them, the client
// library and the studio read their types.
import { Type, type Static } from "@sinclair/typebox";

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const AvatarGroupSchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  variants: Type.Array(Type.String()),
  tones: Type.Array(Type.String()),
  preview: Type.String(),
  stock: Type.Boolean(),
});
export const VideoRowSchema = Type.Object({
  id: Type.String(),
  status: Type.String(),
  kind: Type.String(),
  bytes: Type.Union([Type.Integer(), Type.Null()]),
  identity: Type.String(),
  emotion: Type.String(),
  active: Type.Boolean(),
  deletable: Type.Boolean(),
  registry_note: Nullable(Type.String()),
});
export const LoadedAvatarsSchema = Type.Object({
  avatars: Type.Array(Type.String()),
  groups: Type.Array(AvatarGroupSchema),
  preparing: Type.Array(Type.String()),
  active: Type.String(),
  active_group: Type.String(),
  builds: Type.Record(Type.String(), Type.Unknown()),
});
export const VideoListSchema = Type.Object({ videos: Type.Array(VideoRowSchema), active: Type.String() });

export type AvatarGroup = Static<typeof AvatarGroupSchema>;
export type VideoRow = Static<typeof VideoRowSchema>;
export type LoadedAvatars = Static<typeof LoadedAvatarsSchema>;
export type VideoList = Static<typeof VideoListSchema>;
