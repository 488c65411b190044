// Implements: OpenAPI 3.1 document of every box route, generated from the route table's TypeBox schemas.
import type { TSchema } from "@sinclair/typebox";
import type { RouteDef } from "./route.ts";
import { policyFor } from "../auth/policy.ts";

const plain = (s: TSchema) => JSON.parse(JSON.stringify(s));

export function openApiDocument(routes: RouteDef[], extra: { path: string; method: string; summary: string }[] = []) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    const op: Record<string, unknown> = { summary: r.summary, "x-policy": policyFor(r.method, r.path), responses: {} };
    const params = [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    if (r.query) {
      const q = plain(r.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {})) {
        params.push({ name, in: "query", required: (q.required ?? []).includes(name), schema: schema as { type: string } });
      }
    }
    if (params.length) op.parameters = params;
    if (r.body) op.requestBody = { required: false, content: { "application/json": { schema: plain(r.body) } } };
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(r.responses)) {
      if ("contentType" in schema && typeof schema.contentType === "string") {
        responses[status] = { description: schema.description, content: { [schema.contentType]: {} } };
      } else {
        responses[status] = { description: `HTTP ${status}`, content: { "application/json": { schema: plain(schema as TSchema) } } };
      }
    }
    op.responses = responses;
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = op;
  }
  for (const e of extra) {
    paths[e.path] ??= {};
    paths[e.path][e.method] = { summary: e.summary, "x-policy": "any", responses: { "101": { description: "WebSocket upgrade" } } };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Avatar box", version: "0.1.0", description: "Box plane of the real-time avatar service (service-spec.md)." },
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        bearer: { type: "http", scheme: "bearer" },
        sessionToken: { type: "apiKey", in: "query", name: "session_token" },
      },
    },
    security: [{ apiKey: [] }, { bearer: [] }, { sessionToken: [] }],
    paths,
  };
}
