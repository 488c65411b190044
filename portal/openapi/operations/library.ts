// Implements: the avatar-library operations: the library, its assets, visibility, erasure and the
// consent records. One group of the portal's OpenAPI route table (assembled in ../operations.ts).
import { Type } from "@sinclair/typebox";
import { LibraryRecord, PublicLibraryRecord, EraseResult } from "../../../shared/wire/library.ts";
import { PublicationConsent, PublicationTermsRecord, UploadAttestation } from "../../consent/schema.ts";
import { AvatarAssetsSchema, PublicationConsentBody, UploadConsentBody, VisibilityBody, wrap } from "../schemas.ts";
import { raw, type PortalOperation } from "./operation.ts";

export const LIBRARY_OPERATIONS: PortalOperation[] = [
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
];
