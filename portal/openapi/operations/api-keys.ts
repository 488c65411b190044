// Implements: the API-key operations: listing, creating and revoking box API keys, and minting the
// short-lived box credential. One group of the portal's OpenAPI route table (assembled in
// ../operations.ts).
import { Type } from "@sinclair/typebox";
import { ApiKeyRecord, CreatedApiKey } from "../../keys/schema.ts";
import { CreateKeyBody, OkAnswer, SessionCredentialSchema, wrap } from "../schemas.ts";
import type { PortalOperation } from "./operation.ts";

export const API_KEY_OPERATIONS: PortalOperation[] = [
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
];
