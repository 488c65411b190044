// Implements: Model catalogue row (in `models`), service-spec.md: residency, ordering,
// one row per model (most resident wins, a genuinely newer offshore copy kept beside it),
// selectability and probe-only capability flags.
import { RESIDENCIES, type CatalogueRow, type ModelDecl, type ModelProbe, type Residency } from "../../shared/wire/catalogue.ts";

export type { CatalogueRow, ModelDecl, ModelProbe, Residency } from "../../shared/wire/catalogue.ts";

export interface CatalogueOptions {
  /** Explicit opt-in: models outside Australia may be chosen. */
  allowOffshore: boolean;
  /** This box runs in Australia: an id without a geography prefix is served here. */
  inCountry: boolean;
}

/** Geography prefixes whose traffic stays in Asia-Pacific but may leave Australia. */
export const APAC_PREFIXES: ReadonlySet<string> = new Set([
  "apac",
  "ap",
  "jp",
  "kr",
  "sg",
  "in",
  "id",
  "my",
  "th",
  "ph",
  "vn",
  "hk",
  "tw",
  "nz",
  "cn",
]);
/** Other prefixes known to be geographies (all reported `global`). */
const OTHER_GEO_PREFIXES: ReadonlySet<string> = new Set([
  "us",
  "us-gov",
  "eu",
  "global",
  "ca",
  "uk",
  "sa",
  "me",
  "af",
  "il",
  "mx",
  "br",
  "latam",
]);

/**
 * What an unprobed model reports. `default_reasoning` is `off`: with `reasoning: "none"` the
 * level is ignored anyway, and `off` claims no thinking that was never measured.
 */
export const UNPROBED: ModelProbe = Object.freeze({
  supports_sampling: false,
  supports_effort: false,
  effort_max: false,
  reasoning: "none",
  default_reasoning: "off",
});

export interface ParsedModelId {
  /** The geography prefix, or null when the id has none. */
  geo: string | null;
  /** `<vendor>.<model>`: the id without its prefix; copies of one model share it. */
  key: string;
}

/**
 * Splits `<geo>.<vendor>.<model>` / `<vendor>.<model>`. The first segment is a geography when
 * it is a known one, or when the id has three or more segments and the second is the declared
 * vendor (so an unknown prefix is still recognised, and a dotted model name is not mistaken).
 */
export function parseModelId(id: string, provider: string): ParsedModelId {
  const segs = id.split(".");
  if (segs.length >= 3) {
    const first = segs[0].toLowerCase();
    const known = first === "au" || APAC_PREFIXES.has(first) || OTHER_GEO_PREFIXES.has(first);
    if (known || (segs[1].toLowerCase() === provider && first !== provider)) {
      return { geo: first, key: segs.slice(1).join(".") };
    }
  }
  return { geo: null, key: id };
}

export function residencyOf(geo: string | null, inCountry: boolean): Residency {
  if (geo === null) return inCountry ? "au" : "global";
  if (geo === "au") return "au";
  if (APAC_PREFIXES.has(geo)) return "apac";
  return "global";
}

const rank = (r: Residency) => RESIDENCIES.indexOf(r);

/** Strictly later release date; a copy with no date is never genuinely newer. */
function isNewer(a: ModelDecl, b: ModelDecl): boolean {
  return a.released !== undefined && b.released !== undefined && a.released > b.released;
}

interface Copy {
  decl: ModelDecl;
  residency: Residency;
  order: number;
}

function toRow(c: Copy, probe: ModelProbe | undefined, opts: CatalogueOptions): CatalogueRow {
  const p = probe ?? UNPROBED;
  const row: CatalogueRow = {
    id: c.decl.id,
    label: c.decl.label,
    tiers: [...c.decl.tiers],
    supports_sampling: p.supports_sampling,
    supports_effort: p.supports_effort,
    effort_max: p.effort_max,
    reasoning: p.reasoning,
    default_reasoning: p.default_reasoning,
    provider: c.decl.provider,
    residency: c.residency,
    selectable: c.residency === "au" || opts.allowOffshore,
  };
  if (probe?.forced_tool_choice_supported === false) row.forced_tool_choice_supported = false;
  return row;
}

/**
 * The served `models` list. Duplicate ids keep their first declaration. Per model (`key`), the
 * most resident copy wins (ties: first declared); among the other copies, those strictly newer
 * than the winner are considered and the newest (ties: most resident, then first declared) is
 * returned beside it. Rows are ordered au, apac, global, stable in declaration order.
 */
export function buildCatalogue(
  decls: readonly ModelDecl[],
  probes: ReadonlyMap<string, ModelProbe>,
  opts: CatalogueOptions,
): CatalogueRow[] {
  const seen = new Set<string>();
  const groups = new Map<string, Copy[]>();
  decls.forEach((decl, order) => {
    if (seen.has(decl.id)) return;
    seen.add(decl.id);
    const { geo, key } = parseModelId(decl.id, decl.provider);
    const copy: Copy = { decl, residency: residencyOf(geo, opts.inCountry), order };
    const list = groups.get(key);
    if (list) list.push(copy);
    else groups.set(key, [copy]);
  });

  const kept: Copy[] = [];
  for (const copies of groups.values()) {
    const byResidency = [...copies].sort((a, b) => rank(a.residency) - rank(b.residency) || a.order - b.order);
    const winner = byResidency[0];
    kept.push(winner);
    const newer = byResidency.filter((c) => c !== winner && isNewer(c.decl, winner.decl));
    if (newer.length > 0) {
      // byResidency order already breaks ties; keep the first of the newest date.
      const newest = newer.reduce((best, c) => (isNewer(c.decl, best.decl) ? c : best));
      kept.push(newest);
    }
  }
  kept.sort((a, b) => rank(a.residency) - rank(b.residency) || a.order - b.order);
  return kept.map((c) => toRow(c, probes.get(c.decl.id), opts));
}

/** The row a settings value names, if any. */
export function findModel(catalogue: readonly CatalogueRow[], id: string): CatalogueRow | undefined {
  return catalogue.find((r) => r.id === id);
}
