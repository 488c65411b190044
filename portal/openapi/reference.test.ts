// The reference page's reading of JSON Schema: nested objects, arrays of objects, intersections,
// unions, `$ref`s into components and recursive schemas become field rows a person can scan;
// untagged box paths fall into named areas.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { areaOf, fieldRows, referenceGroups, typeOf } from "./reference.ts";

const plain = (s: unknown) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
const doc = { components: { schemas: { Err: { type: "object", properties: { code: { type: "string" } }, required: ["code"] } } } };

describe("field rows", () => {
  it("spell out nested objects, arrays of objects, optional fields and constraints", () => {
    const s = plain(
      Type.Object({
        keys: Type.Array(Type.Object({ id: Type.String({ pattern: "^k_" }), revoked_at: Type.Union([Type.Integer(), Type.Null()]) })),
        scope: Type.Optional(Type.Union([Type.Literal("full"), Type.Literal("tts")])),
      }),
    );
    expect(fieldRows(doc, s)).toEqual([
      { name: "keys", type: "array of object", required: true, notes: "" },
      { name: "keys[].id", type: "string", required: true, notes: "pattern ^k_" },
      { name: "keys[].revoked_at", type: "integer or null", required: true, notes: "" },
      { name: "scope", type: '"full" | "tts"', required: false, notes: "" },
    ]);
  });

  it("merge an intersection's fields and follow a $ref into the components", () => {
    const both = Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Boolean() })]);
    expect(fieldRows(doc, plain(Type.Object({ x: both }))).map((r) => r.name)).toEqual(["x", "x.a", "x.b"]);
    expect(fieldRows(doc, { $ref: "#/components/schemas/Err" })).toEqual([{ name: "code", type: "string", required: true, notes: "" }]);
  });

  it("stop at a recursive schema instead of looping", () => {
    const Node = Type.Recursive((self) => Type.Object({ name: Type.String(), children: Type.Array(self) }));
    const rows = fieldRows(doc, plain(Type.Object({ tree: Node })));
    expect(rows.length).toBeLessThan(20);
    expect(rows[0]).toMatchObject({ name: "tree", type: "object" });
    expect(typeOf(doc, { $ref: "T0" })).toBe("object (recursive)");
  });

  it("give a non-object body one row naming its type", () => {
    expect(fieldRows(doc, plain(Type.Array(Type.String())))).toEqual([{ name: "", type: "array of string", required: true, notes: "" }]);
  });
});

describe("areas of untagged paths", () => {
  it("group the box's paths by what they are for, in a fixed order", () => {
    expect(
      [
        "/health",
        "/connect",
        "/api/chat/status",
        "/api/avatar/clips",
        "/v1/photo_avatar.create",
        "/api/voice/ws",
        "/api/upload",
        "/conversations/{id}",
      ].map(areaOf),
    ).toEqual([
      "System",
      "Live session",
      "Chat",
      "Avatars and clips",
      "Avatars and clips",
      "Voices and audio",
      "Voices and audio",
      "Conversations",
    ]);
    const d = {
      paths: {
        "/conversations": { get: { summary: "" } },
        "/health": { get: { summary: "" } },
        "/api/new/thing": { post: { summary: "" } },
      },
    };
    expect(referenceGroups(d, "box").map((g) => g.name)).toEqual(["System", "Conversations", "New"]);
  });
});
