// Implements: GET /api/avatars, GET /api/videos, GET /api/avatar/preview; with uploaded faces
// on, POST /api/avatar, POST /api/avatar/delete and POST /v1/photo_avatar.create (own/routes.ts).
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../shared/errors/api-error.ts";
import { route, type RouteDef } from "../http/route.ts";
import { ownAvatarRoutes, type OwnRouteDeps } from "./own/routes.ts";
import type { AvatarRegistry } from "./registry.ts";
import { LoadedAvatarsSchema, VideoListSchema } from "../../shared/wire/avatars.ts";

export function avatarRoutes(registry: AvatarRegistry, own?: Omit<OwnRouteDeps, "registry" | "own">): RouteDef[] {
  return [
    ...(registry.own && own ? ownAvatarRoutes({ ...own, registry, own: registry.own }) : []),
    route({
      method: "GET",
      path: "/api/avatars",
      summary: "Loaded avatars: every variant, groups with tones, the active one",
      envelope: "flat",
      responses: {
        200: LoadedAvatarsSchema,
      },
      handler: () => registry.loaded(),
    }),
    route({
      method: "GET",
      path: "/api/videos",
      summary: "Video rows of every loaded variant",
      envelope: "flat",
      responses: { 200: VideoListSchema },
      handler: () => registry.videos(),
    }),
    route({
      method: "GET",
      path: "/api/avatar/preview",
      summary: "PNG still of an avatar variant",
      envelope: "flat",
      query: Type.Object({ avatar: Type.String() }),
      responses: {
        200: { contentType: "image/png", description: "PNG still" },
        404: Type.Object({
          error: Type.String(),
          code: Type.String({
            description: "unknown_avatar (unknown or not yours), avatar_not_ready (still being prepared: retry), avatar_failed",
          }),
        }),
      },
      handler: async ({ query }) => {
        const id = query.get("avatar");
        if (!id) throw new ApiError(404, "unknown_avatar", "Name an avatar with ?avatar=<id>.");
        const png = await registry.preview(id);
        return new Response(png as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": "image/png", "cache-control": "private, max-age=300" },
        });
      },
    }),
  ];
}
