// Implements: GET /api/avatars, GET /api/videos, GET /api/avatar/preview; with uploaded faces
// on, POST /api/avatar, POST /api/avatar/delete and POST /v1/photo_avatar.create (own/routes.ts).
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../shared/errors/api-error.ts";
import { route, type RouteDef } from "../http/route.ts";
import { ownAvatarRoutes, type OwnRouteDeps } from "./own/routes.ts";
import type { AvatarRegistry } from "./registry.ts";

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Group = Type.Object({ id: Type.String(), label: Type.String(), variants: Type.Array(Type.String()), tones: Type.Array(Type.String()), preview: Type.String(), stock: Type.Boolean() });
const VideoRow = Type.Object({
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

export function avatarRoutes(registry: AvatarRegistry, own?: Omit<OwnRouteDeps, "registry" | "own">): RouteDef[] {
  return [
    ...(registry.own && own ? ownAvatarRoutes({ ...own, registry, own: registry.own }) : []),
    route({
      method: "GET",
      path: "/api/avatars",
      summary: "Loaded avatars: every variant, groups with tones, the active one",
      envelope: "flat",
      responses: {
        200: Type.Object({
          avatars: Type.Array(Type.String()),
          groups: Type.Array(Group),
          preparing: Type.Array(Type.String()),
          active: Type.String(),
          active_group: Type.String(),
          builds: Type.Record(Type.String(), Type.Unknown()),
        }),
      },
      handler: () => registry.loaded(),
    }),
    route({
      method: "GET",
      path: "/api/videos",
      summary: "Video rows of every loaded variant",
      envelope: "flat",
      responses: { 200: Type.Object({ videos: Type.Array(VideoRow), active: Type.String() }) },
      handler: () => registry.videos(),
    }),
    route({
      method: "GET",
      path: "/api/avatar/preview",
      summary: "PNG still of an avatar variant",
      envelope: "flat",
      query: Type.Object({ avatar: Type.String() }),
      responses: { 200: { contentType: "image/png", description: "PNG still" }, 404: Type.Object({ error: Type.String(), code: Type.String({ description: "unknown_avatar (unknown or not yours), avatar_not_ready (still being prepared: retry), avatar_failed" }) }) },
      handler: async ({ query }) => {
        const id = query.get("avatar");
        if (!id) throw new ApiError(404, "unknown_avatar", "Name an avatar with ?avatar=<id>.");
        const png = await registry.preview(id);
        return new Response(png as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png", "cache-control": "private, max-age=300" } });
      },
    }),
  ];
}
