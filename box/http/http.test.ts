import { describe, expect, it } from "vitest";
import { jsonDepth, readJsonObject } from "./json-body.ts";
import { ApiError, errorBody } from "../../shared/errors/api-error.ts";
import { openApiDocument } from "./openapi.ts";
import { Type } from "@sinclair/typebox";

const req = (body: string, headers: Record<string, string> = {}) => new Request("http://localhost/x", { method: "POST", body, headers });
const code = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: ApiError) => `${e.status} ${e.code}`,
  );

describe("readJsonObject", () => {
  it("counts depth outside strings only", () => {
    expect(jsonDepth('{"a":[{"b":"[[[["}]}')).toBe(3);
    expect(jsonDepth('"\\"{"')).toBe(0);
  });
  it("refuses non-objects, bad JSON, too deep and too large with the spec's codes", async () => {
    expect(await code(readJsonObject(req("[1]")))).toBe("400 invalid_body");
    expect(await code(readJsonObject(req("null")))).toBe("400 invalid_body");
    expect(await code(readJsonObject(req("{bad")))).toBe("400 invalid_body");
    expect(await code(readJsonObject(req("")))).toBe("400 invalid_body");
    expect(await code(readJsonObject(req("[".repeat(40) + "]".repeat(40))))).toBe("400 invalid_body");
    expect(await code(readJsonObject(req(JSON.stringify({ a: "x".repeat(300 * 1024) })), { limitBytes: 256 * 1024 }))).toBe(
      "413 body_too_large",
    );
    expect(await code(readJsonObject(req("{}", { "content-length": "999999999" }), { limitBytes: 1024 }))).toBe("413 body_too_large");
  });
  it("reads an object, and an empty body as {} when allowed", async () => {
    expect(await readJsonObject(req('{"a":1}'))).toEqual({ a: 1 });
    expect(await readJsonObject(req(""), { emptyAsObject: true })).toEqual({});
  });
});

describe("error envelopes", () => {
  const e = new ApiError(400, "setting_refused", "No.");
  it("maps one error type into the three shapes (plus the settings refusal)", () => {
    expect(errorBody(e, "nested")).toEqual({ error: { code: "setting_refused", message: "No." } });
    expect(errorBody(e, "unwrapped")).toEqual({ code: "setting_refused", message: "No." });
    expect(errorBody(e, "flat")).toEqual({ error: "No.", code: "setting_refused" });
    expect(errorBody(e, "settings")).toEqual({ ok: false, error: { code: "setting_refused", message: "No." } });
  });
  it("lets an error force its envelope (auth failures are always unwrapped)", () => {
    expect(errorBody(new ApiError(401, "missing_api_key", "m", "unwrapped"), "flat")).toEqual({ code: "missing_api_key", message: "m" });
  });
});

describe("openApiDocument", () => {
  it("lists every route with its path parameters, query and body", () => {
    const doc = openApiDocument([
      {
        method: "GET",
        path: "/conversations/:id",
        summary: "s",
        envelope: "flat",
        responses: { 200: Type.Object({}) },
        handler: () => ({}),
      },
      {
        method: "POST",
        path: "/x",
        summary: "s",
        envelope: "flat",
        body: Type.Object({ a: Type.String() }),
        query: Type.Object({ q: Type.Optional(Type.String()) }),
        responses: { 200: Type.Object({}) },
        handler: () => ({}),
      },
    ]);
    expect(doc.openapi).toBe("3.1.0");
    const get = doc.paths["/conversations/{id}"].get as { parameters: { name: string; in: string }[] };
    expect(get.parameters).toEqual([{ name: "id", in: "path", required: true, schema: { type: "string" } }]);
    const post = doc.paths["/x"].post as { requestBody: unknown; parameters: { name: string }[] };
    expect(post.parameters[0].name).toBe("q");
    expect(JSON.stringify(post.requestBody)).toContain('"a"');
  });
});
