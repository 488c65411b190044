import { describe, expect, it } from "vitest";
import { parseModelList } from "./config.ts";

const entry = (extra: Record<string, unknown> = {}) => ({
  id: "au.anthropic.claude-sonnet",
  label: "Claude Sonnet",
  provider: "anthropic",
  tiers: ["quality"],
  ...extra,
});
const parse = (v: unknown) => parseModelList(JSON.stringify(v));

describe("parseModelList", () => {
  it("reads a blank value as no models", () => {
    expect(parseModelList("")).toEqual({ decls: [], probes: new Map() });
    expect(parseModelList("  \n")).toEqual({ decls: [], probes: new Map() });
  });

  it("reads declarations in order", () => {
    const { decls, probes } = parse([
      entry(),
      entry({ id: "us.anthropic.claude-haiku", label: "Haiku", tiers: ["fast"], released: "2025-05-01" }),
    ]);
    expect(decls).toEqual([
      { id: "au.anthropic.claude-sonnet", label: "Claude Sonnet", provider: "anthropic", tiers: ["quality"] },
      { id: "us.anthropic.claude-haiku", label: "Haiku", provider: "anthropic", tiers: ["fast"], released: "2025-05-01" },
    ]);
    expect(probes.size).toBe(0);
  });

  it("defaults tiers to none", () => {
    const { decls } = parse([{ id: "anthropic.x", label: "X", provider: "anthropic" }]);
    expect(decls[0].tiers).toEqual([]);
  });

  it("reads a full probe", () => {
    const probe = {
      supports_sampling: true,
      supports_effort: true,
      effort_max: false,
      reasoning: "adaptive",
      default_reasoning: "low",
      forced_tool_choice_supported: false,
    };
    const { probes } = parse([entry({ probe })]);
    expect(probes.get("au.anthropic.claude-sonnet")).toEqual(probe);
  });

  it("fills a partial probe with not-measured values", () => {
    const { probes } = parse([entry({ probe: { supports_sampling: true } })]);
    expect(probes.get("au.anthropic.claude-sonnet")).toEqual({
      supports_sampling: true,
      supports_effort: false,
      effort_max: false,
      reasoning: "none",
      default_reasoning: "off",
    });
  });

  it("defaults default_reasoning to medium for a reasoning model", () => {
    const { probes } = parse([entry({ probe: { reasoning: "budget" } })]);
    expect(probes.get("au.anthropic.claude-sonnet")?.default_reasoning).toBe("medium");
  });

  it("takes effort_max as implying supports_effort", () => {
    const { probes } = parse([entry({ probe: { effort_max: true } })]);
    expect(probes.get("au.anthropic.claude-sonnet")?.supports_effort).toBe(true);
  });

  it.each([
    ["not JSON", "[{"],
    ["not a list", JSON.stringify({ id: "x" })],
    ["missing label", JSON.stringify([{ id: "a.b", provider: "x" }])],
    ["unknown field", JSON.stringify([entry({ colour: "red" })])],
    ["unknown tier", JSON.stringify([entry({ tiers: ["slow"] })])],
    ["repeated tier", JSON.stringify([entry({ tiers: ["fast", "fast"] })])],
    ["uppercase provider", JSON.stringify([entry({ provider: "Anthropic" })])],
    ["id with a space", JSON.stringify([entry({ id: "au.anthropic.a b" })])],
    ["empty id", JSON.stringify([entry({ id: "" })])],
    ["bad date", JSON.stringify([entry({ released: "2025-02-30" })])],
    ["date shape", JSON.stringify([entry({ released: "June 2025" })])],
    ["unknown probe field", JSON.stringify([entry({ probe: { fast: true } })])],
    ["bad reasoning kind", JSON.stringify([entry({ probe: { reasoning: "sometimes" } })])],
    ["bad default level", JSON.stringify([entry({ probe: { default_reasoning: "max" } })])],
    ["effort_max contradicting supports_effort", JSON.stringify([entry({ probe: { effort_max: true, supports_effort: false } })])],
    ["repeated id", JSON.stringify([entry(), entry()])],
  ])("refuses %s", (_name, json) => {
    expect(() => parseModelList(json)).toThrow(Error);
  });

  it("names the offending place in its message", () => {
    expect(() => parse([entry(), entry({ tiers: ["slow"] })])).toThrow(/\/1\/tiers/);
  });
});
