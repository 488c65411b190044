// Implements: the configured model list that feeds the Model catalogue (service-spec.md) until
// provider clients declare their own. Read from `BOX_MODELS` by env.ts, parsed here.
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { IsoDate, ModelDecl, ReasoningKind, ReasoningLevel, Tier, type ModelProbe } from "../../shared/wire/catalogue.ts";

/**
 * A stated probe. Flags left out were not measured and read as false; `reasoning` defaults to
 * `none`; `default_reasoning` defaults to `off` for `none` and to `medium` otherwise.
 */
const ProbeEntry = Type.Object(
  {
    supports_sampling: Type.Optional(Type.Boolean()),
    supports_effort: Type.Optional(Type.Boolean()),
    effort_max: Type.Optional(Type.Boolean()),
    reasoning: Type.Optional(ReasoningKind),
    forced_tool_choice_supported: Type.Optional(Type.Boolean()),
    default_reasoning: Type.Optional(ReasoningLevel),
  },
  { additionalProperties: false },
);

/** One entry of `BOX_MODELS`; unknown fields are refused so a typo cannot pass silently. */
export const ModelListEntry = Type.Object(
  {
    id: ModelDecl.properties.id,
    label: ModelDecl.properties.label,
    provider: ModelDecl.properties.provider,
    tiers: Type.Optional(Type.Array(Tier, { uniqueItems: true })),
    released: Type.Optional(IsoDate),
    probe: Type.Optional(ProbeEntry),
  },
  { additionalProperties: false },
);
export type ModelListEntry = Static<typeof ModelListEntry>;

export const ModelList = Type.Array(ModelListEntry);

export interface ParsedModelList {
  decls: ModelDecl[];
  /** Keyed by model id; only entries that stated a probe. */
  probes: Map<string, ModelProbe>;
}

function toProbe(p: Static<typeof ProbeEntry>): ModelProbe {
  const reasoning = p.reasoning ?? "none";
  const probe: ModelProbe = {
    supports_sampling: p.supports_sampling ?? false,
    supports_effort: p.supports_effort ?? false,
    effort_max: p.effort_max ?? false,
    reasoning,
    default_reasoning: p.default_reasoning ?? (reasoning === "none" ? "off" : "medium"),
  };
  if (p.forced_tool_choice_supported !== undefined) probe.forced_tool_choice_supported = p.forced_tool_choice_supported;
  return probe;
}

function isCalendarDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * Parses the JSON model list. A blank string is an empty list. Throws `Error` naming the entry
 * and field on anything invalid (start-up configuration: failing loudly is the point).
 */
export function parseModelList(json: string): ParsedModelList {
  if (json.trim() === "") return { decls: [], probes: new Map() };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new Error(`model list is not valid JSON: ${(err as Error).message}`);
  }
  if (!Value.Check(ModelList, value)) {
    const first = [...Value.Errors(ModelList, value)][0];
    throw new Error(`model list is invalid at ${first?.path || "/"}: ${first?.message}`);
  }
  const decls: ModelDecl[] = [];
  const probes = new Map<string, ModelProbe>();
  const ids = new Set<string>();
  value.forEach((e, i) => {
    if (ids.has(e.id)) throw new Error(`model list entry ${i} repeats the id ${e.id}`);
    ids.add(e.id);
    if (e.probe?.effort_max && e.probe.supports_effort === false) {
      throw new Error(`model list entry ${i} (${e.id}) states effort_max without supports_effort`);
    }
    if (e.released !== undefined && !isCalendarDate(e.released)) {
      throw new Error(`model list entry ${i} (${e.id}) has released ${e.released}, which is not a calendar date`);
    }
    const decl: ModelDecl = { id: e.id, label: e.label, provider: e.provider, tiers: e.tiers ?? [] };
    if (e.released !== undefined) decl.released = e.released;
    decls.push(decl);
    if (e.probe) {
      const probe = toProbe(e.probe);
      // effort_max implies effort was measured too.
      if (probe.effort_max) probe.supports_effort = true;
      probes.set(e.id, probe);
    }
  });
  return { decls, probes };
}
