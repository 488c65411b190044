// Implements: POST /api/avatar, POST /api/avatar/delete, POST /v1/photo_avatar.create
// (spec "Box: avatars and clips"). Thin: parse, call the own-avatar service, answer.
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../../shared/errors/api-error.ts";
import { parseVariantId } from "../../../shared/wire/tones.ts";
import { readJsonObject } from "../../http/json-body.ts";
import { route, type RouteDef } from "../../http/route.ts";
import type { AvatarRegistry, ResolvedAvatar } from "../registry.ts";
import { avatarIdFromFilename, explicitAvatarId, isReservedId } from "./ids.ts";
import { intake } from "./intake.ts";
import type { OwnAvatars } from "./own-avatars.ts";
import { familyOf } from "./sniff.ts";
import {
  AVATAR_FORM,
  PHOTO_AVATAR_FORM,
  UPLOAD_LIMITS,
  declaredAiGenerated,
  parseUploadForm,
  readMultipart,
  type AvatarUploadLimits,
} from "./upload-form.ts";

export interface OwnRouteDeps {
  registry: AvatarRegistry;
  own: OwnAvatars;
  /** BOX_PHOTO_AVATAR (default: the service's). */
  photoAvatar?: boolean;
  /** What the live session shows now (a face on screen cannot be deleted). */
  onScreen: () => ResolvedAvatar | null;
  /** Framing values the preparer accepts (null: passed on unchecked). */
  framings?: readonly string[] | null;
  limits?: AvatarUploadLimits;
  /** Renders every tone's clip of a prepared avatar and answers their clip objects (refusals throw). */
  buildClips?: (subject: string, avatarId: string, tones: readonly string[]) => Promise<unknown[]>;
}

const Flat = Type.Object({ error: Type.String(), code: Type.String() });
const Nested = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }) });

export function ownAvatarRoutes(d: OwnRouteDeps): RouteDef[] {
  const limits = d.limits ?? UPLOAD_LIMITS;
  const framings = d.framings ?? d.own.opts.framings ?? null;
  const photoAvatar = d.photoAvatar ?? d.own.opts.photoAvatar;
  return [
    route({
      method: "POST",
      path: "/api/avatar",
      summary: "Upload a photo or video to become an avatar (prepared in the background)",
      envelope: "flat",
      responses: {
        200: Type.Object({
          avatar: Type.String(),
          status: Type.Union([Type.Literal("preparing"), Type.Literal("ready")]),
          tones: Type.Array(Type.String()),
          note: Type.String(),
          active: Type.String(),
        }),
        400: Flat,
        409: Flat,
        413: Flat,
      },
      handler: async ({ request, principal }) => {
        const parsed = await parseUploadForm(await readMultipart(request, limits, "flat"), AVATAR_FORM, limits, "flat");
        const avatarId = avatarIdFromFilename(parsed.file.name);
        const r = await intake(d.own, { subject: principal.subject, parsed, avatarId, photoAvatar, framings, envelope: "flat" });
        return {
          avatar: avatarId,
          status: r.manifest.state === "ready" ? "ready" : "preparing",
          tones: r.plan.tones,
          note: r.plan.note,
          active: d.registry.active,
        };
      },
    }),
    route({
      method: "POST",
      path: "/api/avatar/delete",
      summary: "Delete an uploaded avatar (its source, prepared face and previews)",
      envelope: "flat",
      body: Type.Object({ avatar: Type.String() }),
      responses: {
        200: Type.Object({ deleted: Type.String(), active: Type.String(), videos: Type.Array(Type.Unknown()) }),
        400: Flat,
        404: Flat,
        409: Flat,
      },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { limitBytes: 16 * 1024 });
        if (typeof body.avatar !== "string" || !body.avatar.trim())
          throw new ApiError(400, "invalid_body", 'Name the avatar to delete: {"avatar": "<id>"}.');
        const { avatarId } = parseVariantId(body.avatar.trim());
        if (d.registry.resolveFor(null, avatarId))
          throw new ApiError(400, "stock_avatar", `"${avatarId}" is a stock face; only uploaded avatars can be deleted.`);
        const live = d.onScreen();
        await d.own.delete(principal.subject, avatarId, live?.owner === principal.subject && live.avatarId === avatarId);
        return { deleted: avatarId, active: d.registry.active, videos: d.registry.videos(principal.subject).videos };
      },
    }),
    route({
      method: "POST",
      path: "/v1/photo_avatar.create",
      summary: "Create an avatar from a photo (or a declared AI-generated video) and wait for it",
      envelope: "nested",
      responses: {
        200: Type.Object({ data: Type.Object({ avatar_id: Type.String(), clips: Type.Array(Type.Unknown()) }) }),
        400: Nested,
        409: Nested,
        413: Nested,
        501: Nested,
      },
      handler: async ({ request, principal }) => {
        if (!photoAvatar) throw new ApiError(501, "feature_disabled", "Photo avatar creation is off on this box (BOX_PHOTO_AVATAR=off).");
        const parsed = await parseUploadForm(await readMultipart(request, limits, "nested"), PHOTO_AVATAR_FORM, limits, "nested");
        const raw = parsed.fields.avatar_id;
        if (raw === undefined || !raw.trim())
          throw new ApiError(400, "missing_avatar_id", "The part avatar_id is required: the id the new avatar is served under.");
        const avatarId = explicitAvatarId(raw);
        if (!avatarId)
          throw new ApiError(
            400,
            "invalid_avatar_id",
            "avatar_id must be 1 to 64 lowercase letters, digits and single hyphens, starting with a letter or digit.",
          );
        if (isReservedId(avatarId))
          throw new ApiError(400, "invalid_avatar_id", `"${avatarId}" is reserved for the stock faces; choose another avatar_id.`);
        if (familyOf(parsed.file.kind) === "video" && !declaredAiGenerated(parsed.fields.ai_generated)) {
          throw new ApiError(
            400,
            "ai_generated_required",
            "A video becomes a photo avatar only with the declaration ai_generated=true (the video is AI-generated and shows no real person); otherwise upload a photo.",
          );
        }
        const r = await intake(d.own, { subject: principal.subject, parsed, avatarId, photoAvatar: true, framings, envelope: "nested" });
        await r.done;
        const m = d.own.get(principal.subject, avatarId)?.manifest;
        if (m?.state !== "ready") throw new ApiError(400, "unusable_source", m?.detail || "The avatar could not be prepared.");
        // Held until every tone's clip has rendered; a refused clip build (consent, clips off) is the answer,
        // and the prepared avatar stays usable live.
        const clips = d.buildClips ? await d.buildClips(principal.subject, avatarId, m.tones) : [];
        return { data: { avatar_id: avatarId, clips } };
      },
    }),
  ];
}
