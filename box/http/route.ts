// The box's route table: every route is declared once with its schemas and error envelope;
// the app registers them on Elysia and /openapi.json is generated from the same table.
import type { TSchema } from "@sinclair/typebox";
import type { Envelope } from "../../shared/errors/api-error.ts";
import type { Principal } from "../auth/principal.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface RouteCtx {
  request: Request;
  principal: Principal;
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface RouteDef {
  method: Method;
  /** Elysia path syntax (`/conversations/:id`). */
  path: string;
  summary: string;
  /** Envelope of this route's errors (spec "Errors: Envelopes"). */
  envelope: Envelope;
  body?: TSchema;
  query?: TSchema;
  /** Response schemas by status, for the OpenAPI document. */
  responses: Record<number, TSchema | { contentType: string; description: string }>;
  handler: (ctx: RouteCtx) => unknown | Response | Promise<unknown | Response>;
}

export function route(def: RouteDef): RouteDef {
  return def;
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
