// The portal's OpenAPI document is OpenAPI 3.1 in shape (paths, operations, parameters, responses,
// schemas that are plain JSON Schema with every $ref resolving), it is what the portal serves at
// `GET /docs/portal.openapi.json`, and real answers of the portal match the schemas it declares.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { portalOpenApiDocument } from "./document.ts";

type Json = Record<string, unknown>;
const doc = portalOpenApiDocument() as unknown as Json & {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const TYPES = new Set(["object", "array", "string", "integer", "number", "boolean", "null"]);

function deref(s: Json): Json {
  const ref = s.$ref;
  if (typeof ref !== "string") return s;
  const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
  const target = name ? doc.components.schemas[name] : undefined;
  if (!target) throw new Error(`unresolved $ref ${ref}`);
  return target;
}

/** Problems that make a node something other than JSON Schema (2020-12 keywords this project uses). */
function schemaProblems(s: unknown, at: string): string[] {
  if (typeof s !== "object" || s === null || Array.isArray(s)) return [`${at}: not an object`];
  const n = s as Json;
  if (typeof n.$ref === "string") {
    try {
      deref(n);
      return [];
    } catch (err) {
      return [`${at}: ${(err as Error).message}`];
    }
  }
  const out: string[] = [];
  const kinds = ["type", "anyOf", "allOf", "oneOf", "const", "enum"].filter((k) => k in n);
  // `{}` is JSON Schema for any value (TypeBox's Unknown); a node with keywords but no type is not meant.
  if (kinds.length === 0 && Object.keys(n).length > 0) out.push(`${at}: no type, const, enum or combinator`);
  if ("type" in n && !(typeof n.type === "string" && TYPES.has(n.type))) out.push(`${at}: type ${JSON.stringify(n.type)}`);
  if (n.type === "object") {
    const props = (n.properties ?? {}) as Json;
    for (const r of (n.required as string[] | undefined) ?? []) if (!(r in props)) out.push(`${at}: required ${r} is not a property`);
    for (const [k, v] of Object.entries(props)) out.push(...schemaProblems(v, `${at}.${k}`));
  }
  if (n.type === "array") out.push(...schemaProblems(n.items, `${at}[]`));
  for (const c of ["anyOf", "allOf", "oneOf"])
    if (Array.isArray(n[c])) (n[c] as unknown[]).forEach((v, i) => out.push(...schemaProblems(v, `${at}.${c}[${i}]`)));
  return out;
}

/** A small JSON Schema check, enough for the shapes above: what a body breaks, or nothing. */
function violations(value: unknown, raw: Json, at = "$"): string[] {
  const s = deref(raw);
  if ("const" in s) return value === s.const ? [] : [`${at}: not ${JSON.stringify(s.const)}`];
  if (Array.isArray(s.enum)) return s.enum.includes(value) ? [] : [`${at}: not in enum`];
  if (Array.isArray(s.anyOf))
    return (s.anyOf as Json[]).some((a) => violations(value, a, at).length === 0) ? [] : [`${at}: matches no alternative`];
  if (Array.isArray(s.allOf)) return (s.allOf as Json[]).flatMap((a) => violations(value, a, at));
  const type = s.type;
  const actual = value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
  if (type !== actual && !(type === "number" && actual === "integer")) return [`${at}: ${actual}, wanted ${String(type)}`];
  if (type === "object") {
    const v = value as Json;
    const props = (s.properties ?? {}) as Record<string, Json>;
    const out = ((s.required as string[] | undefined) ?? []).filter((r) => !(r in v)).map((r) => `${at}.${r}: missing`);
    for (const [k, p] of Object.entries(props)) if (k in v) out.push(...violations(v[k], p, `${at}.${k}`));
    return out;
  }
  if (type === "array") return (value as unknown[]).flatMap((item, i) => violations(item, s.items as Json, `${at}[${i}]`));
  return [];
}

function declared(method: string, path: string, status: number): Json {
  const content = (doc.paths[path]?.[method]?.responses as Record<string, { content?: Record<string, { schema: Json }> }>)?.[String(status)]
    ?.content;
  const schema = content?.["application/json"]?.schema;
  if (!schema) throw new Error(`${method} ${path} declares no JSON answer for ${status}`);
  return schema;
}

describe("the portal's OpenAPI document", () => {
  it("is OpenAPI 3.1 with info, security schemes and operations", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(Object.keys((doc.components as Json).securitySchemes as Json).sort()).toEqual(["idToken", "sessionCookie"]);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
  });

  it("has well-formed operations: methods, path parameters, responses, unique ids", () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith("/"), path).toBe(true);
      expect(path, "Hono syntax left in a path").not.toMatch(/[:*]/);
      for (const [method, op] of Object.entries(item)) {
        expect(METHODS.has(method), `${method} ${path}`).toBe(true);
        ids.push(op.operationId as string);
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
        const params = ((op.parameters as Json[] | undefined) ?? []).filter((p) => p.in === "path");
        expect(params.map((p) => p.name).sort(), `${method} ${path} path parameters`).toEqual(inPath);
        for (const p of params) expect(p.required).toBe(true);
        const responses = op.responses as Record<string, Json>;
        expect(Object.keys(responses).length, `${method} ${path}`).toBeGreaterThan(0);
        for (const [status, r] of Object.entries(responses)) {
          expect(status).toMatch(/^[1-5]\d\d$/);
          expect(typeof r.description).toBe("string");
        }
      }
    }
    expect(ids.length).toBe(new Set(ids).size);
  });

  it("has schemas that are plain JSON Schema, every $ref resolving", () => {
    const problems: string[] = [];
    for (const [name, s] of Object.entries(doc.components.schemas)) problems.push(...schemaProblems(s, `#/components/schemas/${name}`));
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const at = `${method.toUpperCase()} ${path}`;
        const body = (op.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content?.["application/json"]?.schema;
        if (body) problems.push(...schemaProblems(body, `${at} body`));
        for (const [status, r] of Object.entries(op.responses as Record<string, { content?: Record<string, { schema?: Json }> }>)) {
          const s = r.content?.["application/json"]?.schema;
          if (s) problems.push(...schemaProblems(s, `${at} ${status}`));
        }
      }
    }
    expect(problems).toEqual([]);
    // The check above is not vacuous: a TypeBox-only node and a dangling $ref are caught.
    expect(schemaProblems({ type: "object", properties: { a: { type: "Date" }, b: { maxLength: 3 } } }, "x")).toEqual([
      'x.a: type "Date"',
      "x.b: no type, const, enum or combinator",
    ]);
    expect(schemaProblems({ $ref: "#/components/schemas/Nope" }, "y")).toEqual(["y: unresolved $ref #/components/schemas/Nope"]);
  });
});

describe("the portal's answers match its document", () => {
  let portal: TestPortal;
  let cookie: string;
  beforeAll(async () => {
    portal = await createTestPortal();
    cookie = await portal.signIn("ada@example.com");
  });
  afterAll(() => portal.close());

  const call = async (method: string, path: string, body?: unknown, withCookie = true) => {
    const headers: Record<string, string> = withCookie ? { cookie } : {};
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await portal.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as unknown };
  };

  it("serves this document at GET /docs/portal.openapi.json, to anyone", async () => {
    const r = await call("GET", "/docs/portal.openapi.json", undefined, false);
    expect(r.status).toBe(200);
    expect(r.json).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("answers keys, credentials, tones, library, terms and voice settings in the declared shapes", async () => {
    const cases: [string, string, string, number, unknown?][] = [
      ["POST", "/auth/keys", "/auth/keys", 201, { name: "laptop" }],
      ["GET", "/auth/keys", "/auth/keys", 200],
      ["POST", "/auth/session/credential", "/auth/session/credential", 201],
      ["GET", "/auth/avatars/tones", "/auth/avatars/tones", 200],
      ["GET", "/auth/avatars", "/auth/avatars", 200],
      ["GET", "/auth/avatars/publication-terms", "/auth/avatars/publication-terms", 200],
      ["GET", "/auth/voice/settings", "/auth/voice/settings", 200],
      ["POST", "/auth/consent", "/auth/consent", 201, { sha256: "a".repeat(64) }],
      ["DELETE", "/auth/keys/nope", "/auth/keys/{id}", 404],
      ["POST", "/auth/keys", "/auth/keys", 400, { name: "" }],
    ];
    for (const [method, url, path, status, body] of cases) {
      const r = await call(method, url, body);
      expect(r.status, `${method} ${url}`).toBe(status);
      expect(violations(r.json, declared(method.toLowerCase(), path, status)), `${method} ${url}`).toEqual([]);
    }
    const anon = await call("GET", "/auth/keys", undefined, false);
    expect(anon.status).toBe(401);
    expect(violations(anon.json, declared("get", "/auth/keys", 401))).toEqual([]);
    // And a body of another shape is refused by the same check.
    expect(violations({ keys: [{ id: 1 }] }, declared("get", "/auth/keys", 200)).length).toBeGreaterThan(0);
  });
});
