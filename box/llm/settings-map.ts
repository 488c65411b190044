// Implements: "Settings record" rules for sampling, effort and reasoning, applied against a
// model's probe so a request never carries a field the model refuses.
import {
  EFFORT_LEVELS,
  REASONING_LEVELS,
  type ChatRequest,
  type EffortLevel,
  type ModelProbe,
  type ReasoningKind,
  type ReasoningLevel,
  type ToolChoice,
} from "./types.ts";

export interface ResolvedSettings {
  temperature?: number;
  topP?: number;
  /** The level to send; null = send no reasoning field at all (kind `none`). */
  level: ReasoningLevel | null;
  /** The effort to send (only while `reasoning` is unset, only where supported). */
  effort?: EffortLevel;
  toolChoice?: ToolChoice;
}

export function isReasoningLevel(v: unknown): v is ReasoningLevel {
  return typeof v === "string" && (REASONING_LEVELS as readonly string[]).includes(v);
}

export function resolveSettings(req: ChatRequest, probe: ModelProbe): ResolvedSettings {
  const out: ResolvedSettings = { level: null };
  if (probe.supports_sampling) {
    if (typeof req.temperature === "number") out.temperature = req.temperature;
    if (typeof req.topP === "number") out.topP = req.topP;
  }
  const chosen = isReasoningLevel(req.reasoning) ? req.reasoning : null;
  if (probe.reasoning !== "none") {
    let level = chosen ?? probe.default_reasoning;
    // `always`: thinking cannot be off, so `off` runs the least allowed.
    if (probe.reasoning === "always" && level === "off") level = "low";
    out.level = level;
  }
  if (chosen === null && probe.supports_effort && req.effort) {
    const effort = clampEffort(req.effort, probe);
    if (effort) out.effort = effort;
  }
  if (req.tools?.length && req.toolChoice) {
    const forced = req.toolChoice === "required" || typeof req.toolChoice === "object";
    out.toolChoice = forced && probe.forced_tool_choice_supported === false ? "auto" : req.toolChoice;
  }
  return out;
}

/** The highest accepted effort at or below the asked one (`max` only with `effort_max`). */
export function clampEffort(effort: EffortLevel, probe: ModelProbe): EffortLevel | undefined {
  const accepted = probe.efforts ?? (["low", "medium", "high", ...(probe.effort_max ? ["max"] : [])] as EffortLevel[]);
  for (let i = EFFORT_LEVELS.indexOf(effort); i >= 0; i--) {
    if (accepted.includes(EFFORT_LEVELS[i])) return EFFORT_LEVELS[i];
  }
  return undefined;
}

/** The level a model runs when the persona has chosen none. */
export function defaultReasoningFor(kind: ReasoningKind): ReasoningLevel {
  return kind === "always" ? "low" : "off";
}
