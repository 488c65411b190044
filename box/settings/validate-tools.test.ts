import { describe, expect, it } from "vitest";
import { Value } from "@sinclair/typebox/value";
import { ApiError } from "../../shared/errors/api-error.ts";
import { CustomTool, RESERVED_TOOL_NAMES } from "../../shared/wire/settings.ts";
import { checkParameters, checkTools } from "./validate-tools.ts";
import { tool } from "./testing/validate-fixtures.ts";

function refusedMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).code).toBe("setting_refused");
    return (err as ApiError).message;
  }
  throw new Error("expected setting_refused");
}
const refuseTools = (tools: unknown) => refusedMessage(() => checkTools(tools));
const refuseParams = (parameters: unknown) => refuseTools([tool({ parameters })]);
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });

describe("the tools list", () => {
  it("accepts an empty list", () => expect(checkTools([])).toEqual([]));
  it.each([null, {}, "tool", 3])("refuses %j as not a list", (v) => {
    expect(refuseTools(v)).toMatch(/^tools must be a list/);
  });
  it("accepts ten tools and refuses eleven", () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => tool({ name: `tool_${i}` }));
    expect(checkTools(many(10))).toHaveLength(10);
    expect(refuseTools(many(11))).toMatch(/at most 10/);
  });
  it("refuses a repeated name", () => {
    expect(refuseTools([tool(), tool()])).toMatch(/lookup_order is used twice/);
  });
  it.each([null, "x", []])("refuses an entry %j that is not an object", (t) => {
    expect(refuseTools([t])).toMatch(/tools\[0\] must be an object/);
  });
  it("refuses an unknown field in a definition", () => {
    expect(refuseTools([tool({ url: "https://example.com" })])).toMatch(/unknown field "url"/);
  });
  it("fills defaults and yields a valid CustomTool", () => {
    const [t] = checkTools([tool()]);
    expect(t.timeout_seconds).toBe(8);
    expect(t.enabled).toBe(true);
    expect(Value.Check(CustomTool, t)).toBe(true);
  });
  it("returns a copy that does not share the caller's objects", () => {
    const input = tool();
    const [t] = checkTools([input]);
    (t.parameters.properties as Record<string, unknown>).extra = { type: "string" };
    expect(Object.keys(input.parameters.properties)).toEqual(["order_number"]);
  });
});

describe("name", () => {
  it.each(["ab", "a".repeat(64), "get_weather_2", "x1"])("accepts %s", (name) => {
    expect(checkTools([tool({ name })])[0].name).toBe(name);
  });
  it.each([
    ["one character", "a"],
    ["65 characters", "a".repeat(65)],
    ["uppercase", "Lookup"],
    ["leading digit", "1tool"],
    ["leading underscore", "_tool"],
    ["hyphen", "look-up"],
    ["space", "look up"],
    ["non-ASCII letter", "café"],
    ["number", 12],
  ])("refuses %s", (_why, name) => {
    expect(refuseTools([tool({ name })])).toMatch(/tool name/);
  });
  it("refuses a missing name", () => {
    const { name: _drop, ...rest } = tool();
    expect(refuseTools([rest])).toMatch(/tool name must be a string/);
  });
  it.each(RESERVED_TOOL_NAMES)("refuses the reserved name %s", (name) => {
    expect(refuseTools([tool({ name })])).toMatch(new RegExp(`${name} is reserved`));
  });
});

describe("description", () => {
  it("accepts 400 characters, counted as code points", () => {
    expect(checkTools([tool({ description: "é".repeat(400) })])[0].description).toHaveLength(400);
    expect(checkTools([tool({ description: "🙂".repeat(400) })])).toHaveLength(1);
  });
  it("refuses 401 characters", () => {
    expect(refuseTools([tool({ description: "a".repeat(401) })])).toMatch(/longer than 400/);
  });
  it.each([undefined, "", "   ", 5])("refuses a missing or blank description %j", (description) => {
    expect(refuseTools([tool({ description })])).toMatch(/description is required/);
  });
  it("refuses a lone surrogate in the description", () => {
    expect(refuseTools([tool({ description: "bad \uDC00" })])).toMatch(/lone surrogate/);
  });
});

describe("mode, timeout_seconds, enabled", () => {
  it.each(["await_result", "fire_and_forget"])("accepts mode %s", (mode) => {
    expect(checkTools([tool({ mode })])[0].mode).toBe(mode);
  });
  it.each([undefined, "later", 1])("refuses mode %j", (mode) => {
    expect(refuseTools([tool({ mode })])).toMatch(/mode is required/);
  });
  it.each([1, 10, 5])("accepts timeout_seconds %d", (t) => {
    expect(checkTools([tool({ timeout_seconds: t })])[0].timeout_seconds).toBe(t);
  });
  it.each([0, 11, 2.5, -3, "5", null, 1e300])("refuses timeout_seconds %j", (t) => {
    expect(refuseTools([tool({ timeout_seconds: t })])).toMatch(/timeout_seconds/);
  });
  it("keeps a disabled definition", () => {
    expect(checkTools([tool({ enabled: false })])[0].enabled).toBe(false);
  });
  it.each(["no", 0, null])("refuses enabled %j", (enabled) => {
    expect(refuseTools([tool({ enabled })])).toMatch(/enabled must be true or false/);
  });
});

describe("parameters", () => {
  it("defaults to an object with no properties", () => {
    expect(checkParameters(undefined, "t")).toEqual({ type: "object", properties: {} });
  });
  it("accepts every allowed keyword", () => {
    const p = obj(
      {
        city: { type: "string", description: "City name", enum: ["Sydney", "Perth"] },
        days: { type: "integer", enum: [1, 2, 3] },
        tags: { type: "array", items: { type: "string" } },
      },
      { required: ["city"], description: "Weather query" },
    );
    expect(checkParameters(p, "t")).toEqual(p);
  });
  it.each([null, [], "object", { type: "array", items: { type: "string" } }, { properties: {} }])(
    "refuses a root %j that is not type object",
    (p) => {
      expect(refuseParams(p)).toMatch(/JSON schema of type object/);
    },
  );
  it.each(["additionalProperties", "minLength", "$ref", "default", "format", "oneOf"])("refuses the keyword %s", (k) => {
    expect(refuseParams(obj({ a: { type: "string", [k]: 1 } }))).toContain(`keyword "${k}"`);
  });
  it("refuses a keyword at the root too", () => {
    expect(refuseParams(obj({}, { additionalProperties: false }))).toMatch(/keyword "additionalProperties"/);
  });
  it("refuses a node without a valid type", () => {
    expect(refuseParams(obj({ a: { description: "no type" } }))).toMatch(/needs a type/);
    expect(refuseParams(obj({ a: { type: "date" } }))).toMatch(/needs a type/);
    expect(refuseParams(obj({ a: { type: ["string", "null"] } }))).toMatch(/needs a type/);
  });
  it("accepts three levels of nesting and refuses four (objects and arrays each count)", () => {
    const three = obj({ list: { type: "array", items: obj({ name: { type: "string" } }) } });
    expect(checkTools([tool({ parameters: three })])).toHaveLength(1);
    const fourByArray = obj({ list: { type: "array", items: obj({ inner: { type: "array", items: { type: "string" } } }) } });
    expect(refuseParams(fourByArray)).toMatch(/deeper than 3 levels/);
    const fourByObject = obj({ a: obj({ b: obj({ c: obj({}) }) }) });
    expect(refuseParams(fourByObject)).toMatch(/deeper than 3 levels/);
    expect(checkTools([tool({ parameters: obj({ a: obj({ b: obj({ c: { type: "string" } }) }) }) })])).toHaveLength(1);
  });
  it("accepts 16 properties in total and refuses 17, counting nested ones", () => {
    const props = (n: number, prefix: string) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { type: "string" }]));
    expect(checkTools([tool({ parameters: obj({ ...props(13, "p"), nested: obj(props(2, "q")) }) })])).toHaveLength(1);
    expect(refuseParams(obj({ ...props(14, "p"), nested: obj(props(2, "q")) }))).toMatch(/more than 16 properties/);
  });
  it("accepts 4096 bytes of JSON and refuses 4097, counted in UTF-8 bytes", () => {
    // 400 characters of description cap a single node, so spread the bytes across nodes.
    const big = (bytes: number) => {
      const props: Record<string, unknown> = {};
      let p = obj(props);
      let i = 0;
      while (new TextEncoder().encode(JSON.stringify(p)).length + 420 < bytes) {
        props[`p${i++}`] = { type: "string", description: "x".repeat(380) };
        p = obj(props);
      }
      const used = new TextEncoder().encode(JSON.stringify(p)).length;
      const filler = bytes - used - new TextEncoder().encode(',"z":{"type":"string","description":""}').length;
      props.z = { type: "string", description: "y".repeat(filler) };
      return obj(props);
    };
    const ok = big(4096);
    expect(new TextEncoder().encode(JSON.stringify(ok)).length).toBe(4096);
    expect(checkTools([tool({ parameters: ok })])).toHaveLength(1);
    const over = big(4097);
    expect(new TextEncoder().encode(JSON.stringify(over)).length).toBe(4097);
    expect(refuseParams(over)).toMatch(/4097 bytes/);
    // Multi-byte characters count by their UTF-8 length: 8 x 300 "é" is 2400 characters but over 4800 bytes.
    const accents = obj({ a: { type: "string", description: "é".repeat(300) } });
    const many = obj(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, accents.properties.a])));
    expect(refuseParams(many)).toMatch(/bytes of JSON/);
  });
  it("refuses response_to_user as a parameter name, at any level", () => {
    expect(refuseParams(obj({ response_to_user: { type: "string" } }))).toMatch(/response_to_user, which the platform adds/);
    expect(refuseParams(obj({ a: obj({ response_to_user: { type: "string" } }) }))).toMatch(/response_to_user/);
  });
  it.each(["has space", "1abc", "naïve", "a".repeat(65), ""])("refuses the parameter name %j", (name) => {
    expect(refuseParams(obj({ [name]: { type: "string" } }))).toMatch(/property name/);
  });
  it("refuses properties and required on a non-object, items on a non-array", () => {
    expect(refuseParams(obj({ a: { type: "string", properties: {} } }))).toMatch(/only to type object/);
    expect(refuseParams(obj({ a: { type: "string", required: [] } }))).toMatch(/only to type object/);
    expect(refuseParams(obj({ a: { type: "string", items: { type: "string" } } }))).toMatch(/only to type array/);
  });
  it("refuses required naming an undeclared property, repeats, or non-strings", () => {
    expect(refuseParams(obj({ a: { type: "string" } }, { required: ["b"] }))).toMatch(/requires "b"/);
    expect(refuseParams(obj({ a: { type: "string" } }, { required: ["a", "a"] }))).toMatch(/twice/);
    expect(refuseParams(obj({ a: { type: "string" } }, { required: [1] }))).toMatch(/list of names/);
    expect(refuseParams(obj({ a: { type: "string" } }, { required: "a" }))).toMatch(/list of names/);
  });
  it("refuses required that names a prototype key", () => {
    expect(refuseParams(obj({ a: { type: "string" } }, { required: ["toString"] }))).toMatch(/requires "toString"/);
  });
  it("refuses a bad enum", () => {
    expect(refuseParams(obj({ a: { type: "string", enum: [] } }))).toMatch(/enum/);
    expect(refuseParams(obj({ a: { type: "string", enum: "x" } }))).toMatch(/enum/);
    expect(refuseParams(obj({ a: { type: "string", enum: ["x", 1] } }))).toMatch(/not of type string/);
    expect(refuseParams(obj({ a: { type: "integer", enum: [1.5] } }))).toMatch(/not of type integer/);
    expect(refuseParams(obj({ a: { type: "object", enum: [1] } }))).toMatch(/scalar/);
  });
  it("refuses properties or items that are not schema objects", () => {
    expect(refuseParams(obj({ a: "string" }))).toMatch(/must be a JSON schema object/);
    expect(refuseParams({ type: "object", properties: [] })).toMatch(/properties that are not an object/);
    expect(refuseParams(obj({ a: { type: "array", items: [{ type: "string" }] } }))).toMatch(/must be a JSON schema object/);
  });
  it("refuses a non-string or over-long parameter description", () => {
    expect(refuseParams(obj({ a: { type: "string", description: 3 } }))).toMatch(/description that is not a string/);
    expect(refuseParams(obj({ a: { type: "string", description: "d".repeat(401) } }))).toMatch(/longer than 400/);
  });
});
