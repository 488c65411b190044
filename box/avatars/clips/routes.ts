// Implements: GET /api/avatar/clips, POST /api/avatar/clips/retry, GET /api/avatar/clip (Box:
// avatars and clips). Errors use the structured envelope; an avatar of another credential is
// answered exactly like a missing one (fact 8).
import { readFile } from "node:fs/promises";
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../../shared/errors/api-error.ts";
import { parseVariantId, type Tone } from "../../../shared/wire/tones.ts";
import { ClipList, ClipRetryAnswer, ClipRetryBody } from "../../../shared/wire/clips.ts";
import type { Principal } from "../../auth/principal.ts";
import { readJsonObject } from "../../http/json-body.ts";
import { route, type RouteDef } from "../../http/route.ts";
import type { ClipService, ClipTarget } from "./clip-service.ts";

export interface ClipRouteDeps {
  clips: ClipService;
  /** The caller's avatar (or a stock face) by avatar or variant id; null when missing or not theirs. */
  target(principal: Principal, avatarId: string): ClipTarget | null;
  /** The deployment's default tone for GET /api/avatar/clip. */
  defaultTone: Tone;
}

const Nested = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }) });

export function clipRoutes(d: ClipRouteDeps): RouteDef[] {
  const find = (principal: Principal, raw: unknown): ClipTarget => {
    if (typeof raw !== "string" || !raw) throw new ApiError(400, "invalid_body", "Name the avatar (its id or any variant id).");
    const t = d.target(principal, parseVariantId(raw).avatarId);
    if (!t) throw new ApiError(404, "unknown_avatar", `No avatar "${raw.slice(0, 80)}" of yours is on this box.`);
    return t;
  };
  return [
    route({
      method: "GET",
      path: "/api/avatar/clips",
      summary: "Clip state per tone of one avatar (a tone never requested is absent)",
      envelope: "nested",
      query: Type.Object({ avatar: Type.String() }),
      responses: { 200: ClipList, 400: Nested, 404: Nested },
      handler: ({ principal, query }) => {
        const t = find(principal, query.get("avatar"));
        return { avatar: t.avatarId, clips: d.clips.list(t) };
      },
    }),
    route({
      method: "POST",
      path: "/api/avatar/clips/retry",
      summary: "Queue the idle clip of one tone (202 generating)",
      envelope: "nested",
      body: ClipRetryBody,
      responses: {
        202: ClipRetryAnswer,
        400: Nested,
        403: Nested,
        404: Nested,
        409: Nested,
        501: Nested,
        503: Nested,
      },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { limitBytes: 16 * 1024, envelope: "nested" });
        const t = find(principal, body.avatar);
        const answer = await d.clips.request(t, body.tone);
        return new Response(JSON.stringify(answer), { status: 202, headers: { "content-type": "application/json; charset=utf-8" } });
      },
    }),
    route({
      method: "GET",
      path: "/api/avatar/clip",
      summary: "The MP4 of one tone's idle clip (private caching)",
      envelope: "nested",
      query: Type.Object({ avatar: Type.String(), tone: Type.Optional(Type.String()) }),
      responses: { 200: { contentType: "video/mp4", description: "H.264 MP4" }, 400: Nested, 404: Nested },
      handler: async ({ principal, query }) => {
        const t = find(principal, query.get("avatar"));
        const tone = d.clips.tone(t, query.get("tone") || d.defaultTone);
        const file = d.clips.file(t, tone);
        if (!file)
          throw new ApiError(
            404,
            "clip_not_found",
            `The ${tone} clip of "${t.avatarId}" has not been generated; request it with POST /api/avatar/clips/retry.`,
          );
        // A clip is a few hundred kilobytes: read whole, so a rebuild renaming it meanwhile cannot cut it.
        return new Response(await readFile(file.path), {
          headers: { "content-type": "video/mp4", "content-length": String(file.bytes), "cache-control": "private, max-age=300" },
        });
      },
    }),
  ];
}
