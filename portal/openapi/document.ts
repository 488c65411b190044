// Implements: the portal's OpenAPI 3.1 document, generated from its route table (operations.ts)
// and the features' TypeBox schemas, the way the box generates its own from its route table.
import type { TSchema } from "@sinclair/typebox";
import { SESSION_COOKIE } from "../identity/session-cookie.ts";
import { PORTAL_OPERATIONS, type PortalOperation, type RawAnswer } from "./operations.ts";
import { NestedError, UnwrappedError } from "./schemas.ts";

/** TypeBox schemas are JSON Schema once their symbol-keyed bookkeeping is dropped. */
const plain = (s: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(s));

const isRaw = (v: TSchema | RawAnswer): v is RawAnswer => "contentType" in v && "description" in v && !("type" in v);

/** `/auth/avatars/:id{.+}/assets` → `/auth/avatars/{id}/assets`. */
export function openApiPath(op: PortalOperation): string {
  return op.path ?? op.route.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "{$1}");
}

const SECURITY: Record<PortalOperation["auth"], unknown[]> = {
  session: [{ sessionCookie: [] }, { idToken: [] }],
  admin: [{ sessionCookie: [] }, { idToken: [] }],
  signature: [],
  none: [],
};

function operation(op: PortalOperation): Record<string, unknown> {
  const path = openApiPath(op);
  const parameters: Record<string, unknown>[] = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (op.auth === "signature") {
    parameters.push(
      { name: "exp", in: "query", required: true, schema: { type: "string" } },
      { name: "sig", in: "query", required: true, schema: { type: "string" } },
    );
  }
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(op.responses)) {
    responses[status] = isRaw(answer)
      ? { description: answer.description, ...(answer.contentType ? { content: { [answer.contentType]: {} } } : {}) }
      : { description: `HTTP ${status}`, content: { "application/json": { schema: plain(answer) } } };
  }
  const nested = { $ref: "#/components/schemas/NestedError" };
  for (const [status, codes] of Object.entries(op.refusals ?? {})) {
    responses[status] = {
      description: codes.map((c) => `\`${c}\``).join(", "),
      "x-codes": codes,
      content: { "application/json": { schema: nested } },
    };
  }
  if (op.auth === "session" || op.auth === "admin") {
    responses["401"] = {
      description: "`missing_api_key`, `invalid_api_key` (no session, or an expired one)",
      "x-codes": ["missing_api_key", "invalid_api_key"],
      content: { "application/json": { schema: { $ref: "#/components/schemas/UnwrappedError" } } },
    };
    if (op.method !== "GET" && op.method !== "HEAD") {
      responses["409"] ??= { description: "", "x-codes": [], content: { "application/json": { schema: nested } } };
      const r = responses["409"] as { description: string; "x-codes": string[] };
      r["x-codes"] = [...r["x-codes"], "cross_site_request"];
      r.description = r["x-codes"].map((c) => `\`${c}\``).join(", ");
    }
  }
  const out: Record<string, unknown> = { tags: [op.tag], summary: op.summary, operationId: operationId(op), "x-auth": op.auth };
  if (parameters.length) out.parameters = parameters;
  if (op.body) out.requestBody = { required: !op.bodyOptional, content: { "application/json": { schema: plain(op.body) } } };
  out.responses = responses;
  out.security = SECURITY[op.auth];
  return out;
}

function operationId(op: PortalOperation): string {
  const words = openApiPath(op)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [op.method.toLowerCase(), ...words.map((w) => w[0].toUpperCase() + w.slice(1))].join("");
}

export function portalOpenApiDocument(operations: readonly PortalOperation[] = PORTAL_OPERATIONS) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = openApiPath(op);
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = operation(op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Avatar portal",
      version: "0.1.0",
      description:
        "Portal plane of the real-time avatar service: sign-in, API keys, the box credential, the avatar library, consent, portraits, " +
        "voice keys and the GPU. The portal also forwards the box's paths (`/api/*`, `/v1/*`, `/connect`, `/offer`, `/disconnect`, " +
        "`/conversations*`, `/health`, `/openapi.json`) to the running box: those are in the box's document. Other methods on these " +
        "paths answer 405 `method_not_allowed`; bodies over the limit answer 413 `body_too_large`.",
    },
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    components: {
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "Set by the sign-in routes" },
        idToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "An identity-provider ID token" },
      },
      schemas: { NestedError: plain(NestedError), UnwrappedError: plain(UnwrappedError) },
    },
    paths,
  };
}

export type OpenApiDocument = ReturnType<typeof portalOpenApiDocument>;
