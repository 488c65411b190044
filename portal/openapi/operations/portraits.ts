// Implements: the portrait operations: generating, listing, regenerating and approving portraits. One
// group of the portal's OpenAPI route table (assembled in ../operations.ts).
import { Type } from "@sinclair/typebox";
import { PortraitApproval } from "../../portraits/schema.ts";
import { PortraitRecord } from "../../../shared/wire/portraits.ts";
import { PortraitApproveBody, PortraitCreateBody, PortraitRegenerateBody, wrap } from "../schemas.ts";
import { raw, type PortalOperation } from "./operation.ts";

export const PORTRAIT_OPERATIONS: PortalOperation[] = [
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
];
