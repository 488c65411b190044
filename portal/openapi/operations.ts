// Implements: the portal's route table for its OpenAPI document: every operation under `/auth/*`
// and the document routes, declared once with its schemas, refusals and who may call it. Routes
// themselves stay in each feature's routes.ts; `operations.test.ts` walks the app's registered
// routes and fails when this table and the app disagree, so the document cannot drift.
import { Type, type TSchema } from "@sinclair/typebox";
import { LibraryRecord, PublicLibraryRecord, EraseResult } from "../../shared/wire/library.ts";
import { PublicationConsent, PublicationTermsRecord, UploadAttestation } from "../consent/schema.ts";
import { ApiKeyRecord, CreatedApiKey } from "../keys/schema.ts";
import { PortraitApproval } from "../portraits/schema.ts";
import { PortraitRecord } from "../../shared/wire/portraits.ts";
import { ExchangeBody, RequestLinkBody } from "../sign-in/schema.ts";
import { ChooseVoiceEngineBody, SaveVoiceKeyBody, VoiceSettings } from "../voice-keys/schema.ts";
import { GpuStatusBody, LaunchBody } from "../../shared/wire/gpu.ts";
import {
  AvatarAssetsSchema,
  CreateKeyBody,
  ExchangeAnswer,
  LinkAnswer,
  OkAnswer,
  PortraitApproveBody,
  PortraitCreateBody,
  PortraitRegenerateBody,
  PublicationConsentBody,
  SessionCredentialSchema,
  UploadConsentBody,
  VisibilityBody,
  wrap,
} from "./schemas.ts";

/** `session`: the portal cookie or an identity-provider ID token; `signature`: the signed URL is the credential. */
export type PortalAuth = "session" | "admin" | "none" | "signature";

/** A body that is not JSON (an image, a redirect, the asset bytes). */
export interface RawAnswer {
  contentType: string | null;
  description: string;
}

export interface PortalOperation {
  method: "GET" | "HEAD" | "POST" | "PUT" | "DELETE";
  /** The path exactly as the portal registers it on Hono (`/auth/keys/:id`). */
  route: string;
  /** The OpenAPI path, when it cannot be read off `route` (a `*` tail). */
  path?: string;
  tag: string;
  summary: string;
  auth: PortalAuth;
  body?: TSchema;
  /** A body may be left out (the route reads an absent one as `{}`). */
  bodyOptional?: true;
  responses: Record<number, TSchema | RawAnswer>;
  /** Refusal codes by status, answered in the nested envelope (`{error: {code, message}}`). */
  refusals?: Record<number, string[]>;
}

const raw = (contentType: string | null, description: string): RawAnswer => ({ contentType, description });

const GPU_REFUSALS = { 409: ["gpu_admin_only", "gpu_already_running", "gpu_not_startable"], 502: ["gpu_unavailable"] };

export const PORTAL_OPERATIONS: PortalOperation[] = [
  // Sign-in
  {
    method: "POST",
    route: "/auth/request-link",
    tag: "Sign-in",
    summary: "Mail a one-time sign-in link (always the same neutral answer)",
    auth: "none",
    body: RequestLinkBody,
    responses: { 200: LinkAnswer },
    refusals: { 400: ["invalid_body"], 415: ["unsupported_media_type"] },
  },
  {
    method: "GET",
    route: "/auth/callback",
    tag: "Sign-in",
    summary: "Redeem the mailed link: sets the session cookie and redirects",
    auth: "none",
    responses: { 303: raw(null, "Redirect to the link's `next` path, with the session cookie set") },
    refusals: { 400: ["invalid_link"] },
  },
  {
    method: "POST",
    route: "/auth/session/exchange",
    tag: "Sign-in",
    summary: "Trade an identity-provider ID token (body or Bearer) for the session cookie",
    auth: "none",
    body: ExchangeBody,
    bodyOptional: true,
    responses: { 200: ExchangeAnswer },
    refusals: { 400: ["invalid_body"], 415: ["unsupported_media_type"] },
  },
  {
    method: "POST",
    route: "/auth/logout",
    tag: "Sign-in",
    summary: "End the session and clear its cookie",
    auth: "none",
    responses: { 200: OkAnswer },
  },

  // API keys and the box credential
  {
    method: "GET",
    route: "/auth/keys",
    tag: "API keys",
    summary: "List your box API keys (revoked ones included)",
    auth: "session",
    responses: { 200: wrap("keys", Type.Array(ApiKeyRecord)) },
  },
  {
    method: "POST",
    route: "/auth/keys",
    tag: "API keys",
    summary: "Create a box API key (the secret is shown once)",
    auth: "session",
    body: CreateKeyBody,
    responses: { 201: wrap("key", CreatedApiKey) },
    refusals: { 400: ["invalid_name"], 409: ["key_limit_reached"] },
  },
  {
    method: "DELETE",
    route: "/auth/keys/:id",
    tag: "API keys",
    summary: "Revoke a key",
    auth: "session",
    responses: { 200: OkAnswer },
    refusals: { 404: ["key_not_found"] },
  },
  {
    method: "POST",
    route: "/auth/session/credential",
    tag: "API keys",
    summary: "Mint a short-lived box credential (the one bridge between the planes)",
    auth: "session",
    responses: { 201: SessionCredentialSchema },
  },

  // Avatar library, assets and consent
  {
    method: "GET",
    route: "/auth/avatars",
    tag: "Avatars",
    summary: "Your avatar library",
    auth: "session",
    responses: { 200: wrap("avatars", Type.Array(LibraryRecord)) },
  },
  {
    method: "GET",
    route: "/auth/avatars/public",
    tag: "Avatars",
    summary: "Everyone's published avatars",
    auth: "session",
    responses: { 200: wrap("avatars", Type.Array(PublicLibraryRecord)) },
  },
  {
    method: "GET",
    route: "/auth/avatars/tones",
    tag: "Avatars",
    summary: "The emotion vocabulary (served even when no box runs)",
    auth: "session",
    responses: { 200: wrap("tones", Type.Array(Type.String())) },
  },
  {
    method: "GET",
    route: "/auth/avatars/:id{.+}/assets",
    tag: "Avatars",
    summary: "Short-lived signed URLs of an avatar's portrait and clips",
    auth: "session",
    responses: { 200: AvatarAssetsSchema },
    refusals: { 404: ["avatar_not_found"], 502: ["asset_store_failed"] },
  },
  {
    method: "PUT",
    route: "/auth/avatars/:id/visibility",
    tag: "Avatars",
    summary: "Publish or unpublish an avatar",
    auth: "session",
    body: VisibilityBody,
    responses: { 200: wrap("avatar", LibraryRecord) },
    refusals: {
      400: ["invalid_visibility"],
      404: ["avatar_not_found"],
      409: ["publication_consent_required"],
      503: ["publication_consent_unavailable"],
    },
  },
  {
    method: "DELETE",
    route: "/auth/avatars/:id",
    tag: "Avatars",
    summary: "Erase an avatar everywhere (the box's prepared face at its next boot)",
    auth: "session",
    responses: { 202: EraseResult },
    refusals: { 404: ["avatar_not_found"] },
  },
  {
    method: "GET",
    route: "/auth/assets/*",
    path: "/auth/assets/{key}",
    tag: "Avatars",
    summary: "The bytes behind a signed asset URL (`?exp=&sig=`; single byte ranges)",
    auth: "signature",
    responses: {
      200: raw("application/octet-stream", "The asset (image or video)"),
      206: raw("application/octet-stream", "One byte range"),
    },
    refusals: { 404: ["asset_not_found"], 416: ["range_not_satisfiable"] },
  },
  {
    method: "HEAD",
    route: "/auth/assets/*",
    path: "/auth/assets/{key}",
    tag: "Avatars",
    summary: "The headers of a signed asset URL",
    auth: "signature",
    responses: { 200: raw(null, "Headers only") },
    refusals: { 404: ["asset_not_found"] },
  },
  {
    method: "POST",
    route: "/auth/consent",
    tag: "Consent",
    summary: "Attest consent for the exact bytes of an upload",
    auth: "session",
    body: UploadConsentBody,
    responses: { 201: wrap("consent", UploadAttestation) },
    refusals: { 400: ["invalid_body", "invalid_sha256", "invalid_source_kind"] },
  },
  {
    method: "GET",
    route: "/auth/avatars/publication-terms",
    tag: "Consent",
    summary: "The current publication terms",
    auth: "session",
    responses: { 200: wrap("terms", PublicationTermsRecord) },
  },
  {
    method: "POST",
    route: "/auth/avatars/:id/publication-consent",
    tag: "Consent",
    summary: "Agree to publish an avatar under the terms",
    auth: "session",
    body: PublicationConsentBody,
    bodyOptional: true,
    responses: { 201: wrap("publication_consent", PublicationConsent) },
    refusals: { 400: ["invalid_body", "unknown_terms_version"], 404: ["avatar_not_found"], 503: ["publication_consent_unavailable"] },
  },

  // Portraits
  {
    method: "GET",
    route: "/auth/portraits",
    tag: "Portraits",
    summary: "Your portraits, newest first",
    auth: "session",
    responses: { 200: wrap("portraits", Type.Array(PortraitRecord)) },
  },
  {
    method: "POST",
    route: "/auth/portraits",
    tag: "Portraits",
    summary: "Generate a portrait from a persona description",
    auth: "session",
    body: PortraitCreateBody,
    responses: { 201: wrap("portrait", PortraitRecord) },
    refusals: { 400: ["invalid_body"], 502: ["portrait_generation_failed", "asset_store_failed"], 503: ["portrait_generator_unavailable"] },
  },
  {
    method: "GET",
    route: "/auth/portraits/:id{.+}",
    tag: "Portraits",
    summary: "The portrait's bytes, to look at before approving (ETag, X-Portrait-Sha256)",
    auth: "session",
    responses: { 200: raw("image/png", "The image (PNG or JPEG)"), 304: raw(null, "Not modified") },
    refusals: { 404: ["portrait_not_found"] },
  },
  {
    method: "POST",
    route: "/auth/portraits/:id{.+}/approve",
    tag: "Portraits",
    summary: "Approve the bytes you looked at (bound to their digest)",
    auth: "session",
    body: PortraitApproveBody,
    responses: { 200: PortraitApproval },
    refusals: { 400: ["invalid_body"], 404: ["portrait_not_found"], 409: ["portrait_digest_mismatch"] },
  },
  {
    method: "POST",
    route: "/auth/portraits/:id{.+}/regenerate",
    tag: "Portraits",
    summary: "Draw again under a new id (the old portrait is kept)",
    auth: "session",
    body: PortraitRegenerateBody,
    bodyOptional: true,
    responses: { 201: wrap("portrait", PortraitRecord) },
    refusals: {
      400: ["invalid_body"],
      404: ["portrait_not_found"],
      502: ["portrait_generation_failed"],
      503: ["portrait_generator_unavailable"],
    },
  },

  // Voice keys
  {
    method: "GET",
    route: "/auth/voice/settings",
    tag: "Voice keys",
    summary: "Your voice engine and saved provider keys (masked)",
    auth: "session",
    responses: { 200: wrap("voice", VoiceSettings) },
  },
  {
    method: "PUT",
    route: "/auth/voice/key",
    tag: "Voice keys",
    summary: "Save a hosted provider's key (checked with the provider first)",
    auth: "session",
    body: SaveVoiceKeyBody,
    responses: { 200: wrap("voice", VoiceSettings) },
    refusals: {
      400: ["invalid_body", "unknown_voice_provider", "invalid_voice_key", "voice_key_rejected"],
      502: ["voice_key_check_failed"],
    },
  },
  {
    method: "DELETE",
    route: "/auth/voice/key/:provider",
    tag: "Voice keys",
    summary: "Delete a saved provider key",
    auth: "session",
    responses: { 200: wrap("voice", VoiceSettings) },
    refusals: { 400: ["unknown_voice_provider"] },
  },
  {
    method: "PUT",
    route: "/auth/voice/engine",
    tag: "Voice keys",
    summary: "Choose the voice engine (a hosted one needs its key saved)",
    auth: "session",
    body: ChooseVoiceEngineBody,
    responses: { 200: wrap("voice", VoiceSettings) },
    refusals: { 400: ["invalid_body", "unknown_voice_engine"], 409: ["voice_key_required"] },
  },

  // GPU (administrators)
  {
    method: "GET",
    route: "/auth/gpu/status",
    tag: "GPU",
    summary: "The box's instance, regions and notices",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "GET",
    route: "/auth/gpu/diagnostics",
    tag: "GPU",
    summary: "Status plus instance checks and what the hostname resolves to",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "POST",
    route: "/auth/gpu/start",
    tag: "GPU",
    summary: "Start a stopped box",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "POST",
    route: "/auth/gpu/stop",
    tag: "GPU",
    summary: "Stop the box",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "POST",
    route: "/auth/gpu/terminate",
    tag: "GPU",
    summary: "Terminate the box (the only real off)",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "POST",
    route: "/auth/gpu/launch",
    tag: "GPU",
    summary: "Launch a box (both fields are re-decided server side; owner tier)",
    auth: "admin",
    body: LaunchBody,
    bodyOptional: true,
    responses: { 201: GpuStatusBody },
    refusals: {
      400: ["invalid_body", "gpu_type_not_allowed"],
      403: ["gpu_type_owner_only"],
      409: ["gpu_admin_only", "gpu_already_running", "gpu_region_not_allowed"],
      502: ["gpu_unavailable"],
      503: ["gpu_no_capacity", "gpu_quota_exceeded", "gpu_launch_not_configured"],
    },
  },

  // The documents themselves
  {
    method: "GET",
    route: "/docs/portal.openapi.json",
    tag: "Reference",
    summary: "This document",
    auth: "none",
    responses: { 200: Type.Object({ openapi: Type.String() }) },
  },
  {
    method: "GET",
    route: "/openapi.json",
    tag: "Reference",
    summary: "The running box's OpenAPI document, forwarded like every box path",
    auth: "none",
    responses: { 200: Type.Object({ openapi: Type.String() }) },
    refusals: { 502: ["box_unreachable"], 503: ["box_not_running"] },
  },
];
