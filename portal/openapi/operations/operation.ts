// Implements: the shape of one entry of the portal's OpenAPI route table (method, route, schemas,
// refusals, who may call it) and `raw` for answers that are not JSON; every group file under
// operations/ declares its routes with it.
import type { TSchema } from "@sinclair/typebox";

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

export const raw = (contentType: string | null, description: string): RawAnswer => ({ contentType, description });
