import { describe, expect, it } from "vitest";
import { BUILTIN_LABELS, BUILTIN_NAMES, createBuiltinTools, toToolSpec } from "./registry.ts";
import { runBuiltin } from "./run-builtin.ts";
import { ToolError, type BuiltinTool, type ParamSchema } from "./types.ts";

const ctx = () => ({ timeZone: "Europe/Berlin", signal: new AbortController().signal });
const all = () =>
  createBuiltinTools({
    enabled: [...BUILTIN_NAMES],
    deploymentTimeZone: "Australia/Sydney",
    // Nothing listens on port 1: any accidental network call fails fast and locally.
    weatherBaseUrl: "http://127.0.0.1:1",
    geocodeBaseUrl: "http://127.0.0.1:1",
    wikipediaBaseUrl: "http://127.0.0.1:1",
  });

const ALLOWED_KEYWORDS = new Set(["type", "description", "properties", "required", "enum", "items"]);
function schemaKeywords(schema: ParamSchema, depth = 1): number {
  for (const key of Object.keys(schema)) expect(ALLOWED_KEYWORDS.has(key), `keyword ${key}`).toBe(true);
  let deepest = depth;
  for (const child of Object.values(schema.properties ?? {}))
    deepest = Math.max(deepest, schemaKeywords(child, depth + (child.type === "object" || child.type === "array" ? 1 : 0)));
  return deepest;
}

describe("createBuiltinTools", () => {
  it("builds only the tools the deployment switched on", () => {
    const tools = createBuiltinTools({ enabled: ["calculate", "weather"] });
    expect([...tools.keys()]).toEqual(["calculate", "weather"]);
    expect(createBuiltinTools({ enabled: [] }).size).toBe(0);
  });

  it("refuses unknown names as a configuration error", () => {
    expect(() => createBuiltinTools({ enabled: ["calculate", "speak"] })).toThrow(/Unknown built-in tool\(s\): speak/);
  });

  it("gives each tool its viewer label, calculate's being 'working out the answer'", () => {
    const tools = all();
    expect(tools.get("calculate")!.label).toBe("Working out the answer");
    for (const name of BUILTIN_NAMES) expect(tools.get(name)!.label).toBe(BUILTIN_LABELS[name]);
  });

  it("declares schemas within the custom-tool rules (object, allowed keywords, limits)", () => {
    for (const tool of all().values()) {
      expect(tool.parameters.type).toBe("object");
      expect(schemaKeywords(tool.parameters)).toBeLessThanOrEqual(3);
      expect(Object.keys(tool.parameters.properties ?? {}).length).toBeLessThanOrEqual(16);
      expect(Buffer.byteLength(JSON.stringify(tool.parameters))).toBeLessThanOrEqual(4096);
      expect(tool.description.length).toBeLessThanOrEqual(400);
      expect(tool.name).toMatch(/^[a-z][a-z0-9_]{1,63}$/);
      expect(toToolSpec(tool)).toEqual({ name: tool.name, description: tool.description, parameters: tool.parameters });
    }
  });
});

describe("runBuiltin", () => {
  it("runs a switched-on tool", async () => {
    expect(await runBuiltin(all(), "calculate", { expression: "6 * 7" }, ctx())).toEqual({ ok: true, result: "42" });
    const time = await runBuiltin(all(), "current_time", {}, ctx());
    expect(time.ok && time.result).toContain("Europe/Berlin");
  });

  it("answers not_enabled for a switched-off or unknown tool", async () => {
    const tools = createBuiltinTools({ enabled: ["calculate"] });
    expect(await runBuiltin(tools, "weather", { place: "Paris" }, ctx())).toMatchObject({ ok: false, reason: "not_enabled" });
  });

  // Model outputs with wrong arguments: every tool fails cleanly with invalid_args, never a crash.
  const BAD_ARGS: unknown[] = [
    null,
    42,
    "plain text",
    "[1,2]",
    [],
    true,
    { wrong_name: "x" },
    { expression: {}, place: [], topic: 1, url: false },
  ];
  const needsArgs = BUILTIN_NAMES.filter((n) => n !== "current_time");
  it.each(needsArgs.flatMap((name) => BAD_ARGS.map((args) => [name, args] as const)))("%s with %j → invalid_args", async (name, args) => {
    const outcome = await runBuiltin(all(), name, args, ctx());
    expect(outcome).toMatchObject({ ok: false, reason: "invalid_args" });
    expect(!outcome.ok && outcome.error.length).toBeLessThanOrEqual(200);
  });

  it.each([42, "plain text", [], { time_zone: 5 }, { time_zone: "Nowhere/Land" }])("current_time with %j → invalid_args", async (args) => {
    expect(await runBuiltin(all(), "current_time", args, ctx())).toMatchObject({ ok: false, reason: "invalid_args" });
  });

  it("current_time takes null or absent arguments as none (it has no required ones)", async () => {
    expect(await runBuiltin(all(), "current_time", null, ctx())).toMatchObject({ ok: true });
    expect(await runBuiltin(all(), "current_time", undefined, ctx())).toMatchObject({ ok: true });
  });

  it("maps readable failures to host_error with text capped at 200 characters", async () => {
    const outcome = await runBuiltin(all(), "calculate", { expression: "1/0" }, ctx());
    expect(outcome).toEqual({ ok: false, reason: "host_error", error: "Division by zero is undefined.", detail: undefined });
    const wordy: BuiltinTool = {
      ...all().get("calculate")!,
      run: async () => Promise.reject(new ToolError("x".repeat(500), "secret detail")),
    };
    const capped = await runBuiltin(new Map([["calculate", wordy]]), "calculate", {}, ctx());
    expect(!capped.ok && capped.error.length).toBe(200);
    expect(!capped.ok && capped.detail).toBe("secret detail");
  });

  it("hides unexpected exceptions behind the generic sentence", async () => {
    const broken: BuiltinTool = {
      ...all().get("calculate")!,
      run: async () => Promise.reject(new TypeError("cannot read x of undefined at /srv/box")),
    };
    const outcome = await runBuiltin(new Map([["calculate", broken]]), "calculate", {}, ctx());
    expect(outcome).toMatchObject({ ok: false, reason: "host_error", error: "The tool failed." });
  });

  it("reports cancelled when the turn's signal aborted", async () => {
    const controller = new AbortController();
    const slow: BuiltinTool = {
      ...all().get("calculate")!,
      run: (_args, c) => new Promise((_resolve, reject) => c.signal.addEventListener("abort", () => reject(new Error("aborted")))),
    };
    const pending = runBuiltin(new Map([["calculate", slow]]), "calculate", {}, { timeZone: "UTC", signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, reason: "cancelled" });
  });

  it("reports an unreachable API as host_error, never throwing", async () => {
    const outcome = await runBuiltin(all(), "lookup_wikipedia", { topic: "Berlin" }, ctx());
    expect(outcome).toMatchObject({ ok: false, reason: "host_error", error: "Wikipedia could not be reached." });
  });
});
