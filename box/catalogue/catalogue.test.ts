import { describe, expect, it } from "vitest";
import { Value } from "@sinclair/typebox/value";
import { buildCatalogue, findModel, parseModelId, residencyOf, UNPROBED } from "./catalogue.ts";
import { CatalogueRow, type ModelDecl, type ModelProbe } from "../../shared/wire/catalogue.ts";

const decl = (id: string, extra: Partial<ModelDecl> = {}): ModelDecl => ({
  id,
  label: id,
  provider: "anthropic",
  tiers: ["quality"],
  ...extra,
});
const none = new Map<string, ModelProbe>();
const onshore = { allowOffshore: false, inCountry: true };
const ids = (rows: CatalogueRow[]) => rows.map((r) => r.id);

describe("parseModelId", () => {
  it("reads a known geography prefix", () => {
    expect(parseModelId("au.anthropic.claude-x", "anthropic")).toEqual({ geo: "au", key: "anthropic.claude-x" });
    expect(parseModelId("apac.anthropic.claude-x", "anthropic")).toEqual({ geo: "apac", key: "anthropic.claude-x" });
  });
  it("treats <vendor>.<model> as unprefixed", () => {
    expect(parseModelId("anthropic.claude-x", "anthropic")).toEqual({ geo: null, key: "anthropic.claude-x" });
  });
  it("does not mistake a dotted model name for a prefix", () => {
    expect(parseModelId("anthropic.claude-3.5-sonnet", "anthropic")).toEqual({ geo: null, key: "anthropic.claude-3.5-sonnet" });
  });
  it("recognises an unknown prefix before the declared vendor", () => {
    expect(parseModelId("mars.anthropic.claude-x", "anthropic")).toEqual({ geo: "mars", key: "anthropic.claude-x" });
  });
  it("takes an id without dots as unprefixed", () => {
    expect(parseModelId("llama3", "meta")).toEqual({ geo: null, key: "llama3" });
  });
});

describe("residencyOf", () => {
  it("maps au to au", () => expect(residencyOf("au", false)).toBe("au"));
  it.each(["apac", "jp", "sg", "kr", "in"])("maps %s to apac", (g) => expect(residencyOf(g, true)).toBe("apac"));
  it.each(["us", "eu", "global", "mars"])("maps %s to global", (g) => expect(residencyOf(g, true)).toBe("global"));
  it("reports an unprefixed id au on an in-country box", () => expect(residencyOf(null, true)).toBe("au"));
  it("reports an unprefixed id global elsewhere", () => expect(residencyOf(null, false)).toBe("global"));
});

describe("buildCatalogue", () => {
  it("orders most resident first, stable within a residency", () => {
    const rows = buildCatalogue(
      [
        decl("us.anthropic.a"),
        decl("jp.anthropic.b"),
        decl("au.anthropic.c"),
        decl("eu.anthropic.d"),
        decl("au.anthropic.e"),
        decl("apac.anthropic.f"),
      ],
      none,
      onshore,
    );
    expect(ids(rows)).toEqual([
      "au.anthropic.c",
      "au.anthropic.e",
      "jp.anthropic.b",
      "apac.anthropic.f",
      "us.anthropic.a",
      "eu.anthropic.d",
    ]);
    expect(rows.map((r) => r.residency)).toEqual(["au", "au", "apac", "apac", "global", "global"]);
  });

  it("reports an unprefixed id au in-country and global otherwise", () => {
    expect(buildCatalogue([decl("anthropic.x")], none, onshore)[0].residency).toBe("au");
    expect(buildCatalogue([decl("anthropic.x")], none, { allowOffshore: false, inCountry: false })[0].residency).toBe("global");
  });

  it("keeps only the most resident copy of one model", () => {
    const rows = buildCatalogue([decl("global.anthropic.x"), decl("apac.anthropic.x"), decl("au.anthropic.x")], none, onshore);
    expect(ids(rows)).toEqual(["au.anthropic.x"]);
  });

  it("keeps the first declared of equally resident copies", () => {
    const rows = buildCatalogue([decl("us.anthropic.x"), decl("eu.anthropic.x")], none, onshore);
    expect(ids(rows)).toEqual(["us.anthropic.x"]);
  });

  it("returns both rows when the offshore copy is genuinely newer", () => {
    const rows = buildCatalogue(
      [decl("au.anthropic.x", { released: "2025-01-01" }), decl("global.anthropic.x", { released: "2025-06-01" })],
      none,
      onshore,
    );
    expect(ids(rows)).toEqual(["au.anthropic.x", "global.anthropic.x"]);
  });

  it("drops an offshore copy of the same date, an older one, or one without a date", () => {
    const same = buildCatalogue(
      [decl("au.anthropic.x", { released: "2025-01-01" }), decl("us.anthropic.x", { released: "2025-01-01" })],
      none,
      onshore,
    );
    const older = buildCatalogue(
      [decl("au.anthropic.x", { released: "2025-01-01" }), decl("us.anthropic.x", { released: "2024-01-01" })],
      none,
      onshore,
    );
    const undated = buildCatalogue([decl("au.anthropic.x"), decl("us.anthropic.x", { released: "2026-01-01" })], none, onshore);
    expect(ids(same)).toEqual(["au.anthropic.x"]);
    expect(ids(older)).toEqual(["au.anthropic.x"]);
    expect(ids(undated)).toEqual(["au.anthropic.x"]);
  });

  it("keeps only the newest of several newer copies, the more resident on a tie", () => {
    const rows = buildCatalogue(
      [
        decl("au.anthropic.x", { released: "2025-01-01" }),
        decl("us.anthropic.x", { released: "2025-09-01" }),
        decl("apac.anthropic.x", { released: "2025-09-01" }),
        decl("eu.anthropic.x", { released: "2025-03-01" }),
      ],
      none,
      onshore,
    );
    expect(ids(rows)).toEqual(["au.anthropic.x", "apac.anthropic.x"]);
  });

  it("treats an unprefixed in-country id as the au copy of its model", () => {
    const rows = buildCatalogue([decl("us.anthropic.x"), decl("anthropic.x")], none, onshore);
    expect(ids(rows)).toEqual(["anthropic.x"]);
  });

  it("keeps the first of repeated ids", () => {
    const rows = buildCatalogue([decl("au.anthropic.x", { label: "first" }), decl("au.anthropic.x", { label: "second" })], none, onshore);
    expect(rows).toHaveLength(1);
    expect(rows[0].label).toBe("first");
  });

  it("makes only au rows selectable without the opt-in", () => {
    const rows = buildCatalogue([decl("au.anthropic.a"), decl("apac.anthropic.b"), decl("us.anthropic.c")], none, onshore);
    expect(rows.map((r) => r.selectable)).toEqual([true, false, false]);
  });

  it("makes every row selectable with the opt-in", () => {
    const rows = buildCatalogue([decl("au.anthropic.a"), decl("apac.anthropic.b"), decl("us.anthropic.c")], none, {
      allowOffshore: true,
      inCountry: true,
    });
    expect(rows.map((r) => r.selectable)).toEqual([true, true, true]);
  });

  it("reports no capabilities for an unprobed model", () => {
    const [row] = buildCatalogue([decl("au.anthropic.a")], none, onshore);
    expect(row).toMatchObject({
      supports_sampling: false,
      supports_effort: false,
      effort_max: false,
      reasoning: "none",
      default_reasoning: UNPROBED.default_reasoning,
    });
    expect("forced_tool_choice_supported" in row).toBe(false);
  });

  it("takes capability flags from the probe of that id", () => {
    const probe: ModelProbe = {
      supports_sampling: true,
      supports_effort: true,
      effort_max: true,
      reasoning: "adaptive",
      default_reasoning: "medium",
    };
    const rows = buildCatalogue([decl("au.anthropic.a"), decl("au.anthropic.b")], new Map([["au.anthropic.a", probe]]), onshore);
    expect(rows[0]).toMatchObject(probe);
    expect(rows[1].supports_sampling).toBe(false);
  });

  it("shows forced_tool_choice_supported only when the probe says false", () => {
    const base: ModelProbe = {
      supports_sampling: true,
      supports_effort: false,
      effort_max: false,
      reasoning: "budget",
      default_reasoning: "low",
    };
    const probes = new Map<string, ModelProbe>([
      ["au.anthropic.no", { ...base, forced_tool_choice_supported: false }],
      ["au.anthropic.yes", { ...base, forced_tool_choice_supported: true }],
      ["au.anthropic.unsaid", base],
    ]);
    const rows = buildCatalogue([decl("au.anthropic.no"), decl("au.anthropic.yes"), decl("au.anthropic.unsaid")], probes, onshore);
    expect(rows[0].forced_tool_choice_supported).toBe(false);
    expect("forced_tool_choice_supported" in rows[1]).toBe(false);
    expect("forced_tool_choice_supported" in rows[2]).toBe(false);
  });

  it("produces rows with exactly the spec's fields", () => {
    const rows = buildCatalogue([decl("au.anthropic.a", { tiers: ["quality", "fast"], released: "2025-01-01" })], none, onshore);
    expect(Object.keys(rows[0]).sort()).toEqual(
      [
        "id",
        "label",
        "tiers",
        "supports_sampling",
        "supports_effort",
        "effort_max",
        "reasoning",
        "default_reasoning",
        "provider",
        "residency",
        "selectable",
      ].sort(),
    );
    expect(Value.Check(CatalogueRow, rows[0])).toBe(true);
  });

  it("does not share the declaration's tiers array", () => {
    const d = decl("au.anthropic.a");
    const [row] = buildCatalogue([d], none, onshore);
    row.tiers.push("fast");
    expect(d.tiers).toEqual(["quality"]);
  });

  it("finds a row by id", () => {
    const rows = buildCatalogue([decl("au.anthropic.a")], none, onshore);
    expect(findModel(rows, "au.anthropic.a")?.id).toBe("au.anthropic.a");
    expect(findModel(rows, "au.anthropic.zzz")).toBeUndefined();
  });
});
