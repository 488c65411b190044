// Implements: Model catalogue row (in `models`), service-spec.md.
// TypeBox models for what a provider declares, what a probe measured, and the row served.
import { Type, type Static } from "@sinclair/typebox";

/** Where a model runs, most resident first (the order rows are served in). */
export const RESIDENCIES = ["au", "apac", "global"] as const;
export const Residency = Type.Union(RESIDENCIES.map((r) => Type.Literal(r)));
export type Residency = (typeof RESIDENCIES)[number];

export const TIERS = ["quality", "fast"] as const;
export const Tier = Type.Union(TIERS.map((t) => Type.Literal(t)));
export type Tier = (typeof TIERS)[number];

/** How a model takes a reasoning level (spec: adaptive, always, budget, none). */
export const REASONING_KINDS = ["adaptive", "always", "budget", "none"] as const;
export const ReasoningKind = Type.Union(REASONING_KINDS.map((k) => Type.Literal(k)));
export type ReasoningKind = (typeof REASONING_KINDS)[number];

/** The settings record's `reasoning_levels`; also the values of `default_reasoning`. */
export const REASONING_LEVELS = ["off", "low", "medium", "high"] as const;
export const ReasoningLevel = Type.Union(REASONING_LEVELS.map((l) => Type.Literal(l)));
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];

/** Measured capabilities of one model address. */
export const ModelProbe = Type.Object({
  supports_sampling: Type.Boolean(),
  supports_effort: Type.Boolean(),
  effort_max: Type.Boolean(),
  reasoning: ReasoningKind,
  /** Absent means a forced tool call is supported (spec: present and false only on refusal). */
  forced_tool_choice_supported: Type.Optional(Type.Boolean()),
  default_reasoning: ReasoningLevel,
});
export type ModelProbe = Static<typeof ModelProbe>;

/** An ISO calendar date, `YYYY-MM-DD`; compared as text (lexical order is date order). */
export const IsoDate = Type.String({ pattern: "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$" });

/**
 * What a provider (or configuration) declares about one model address.
 * `released` is how copies of one model are compared: the copy with the later date is the newer
 * one; a copy without a date is never "genuinely newer" than another.
 */
export const ModelDecl = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200, pattern: "^[^\\s]+$" }),
  label: Type.String({ minLength: 1, maxLength: 200 }),
  provider: Type.String({ minLength: 1, maxLength: 64, pattern: "^[a-z0-9][a-z0-9_-]*$" }),
  tiers: Type.Array(Tier, { uniqueItems: true }),
  released: Type.Optional(IsoDate),
});
export type ModelDecl = Static<typeof ModelDecl>;

/** Exactly the spec's "Model catalogue row" fields. */
export const CatalogueRow = Type.Object({
  id: Type.String(),
  label: Type.String(),
  tiers: Type.Array(Tier),
  supports_sampling: Type.Boolean(),
  supports_effort: Type.Boolean(),
  effort_max: Type.Boolean(),
  reasoning: ReasoningKind,
  forced_tool_choice_supported: Type.Optional(Type.Literal(false)),
  default_reasoning: ReasoningLevel,
  provider: Type.String(),
  residency: Residency,
  selectable: Type.Boolean(),
});
export type CatalogueRow = Static<typeof CatalogueRow>;
