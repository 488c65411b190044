// Implements: "Settings record" `reasoning`/`effort` for Claude models, shared by the Anthropic
// Messages provider and Bedrock (which takes the same `thinking` object for vendor anthropic).
import type { ResolvedSettings } from "./settings-map.ts";
import type { ModelProbe, ReasoningKind, ReasoningLevel } from "./types.ts";

/** Thinking budget per level for `budget`/`always` models; the API's minimum is 1024. */
export const THINKING_BUDGET: Record<Exclude<ReasoningLevel, "off">, number> = { low: 1024, medium: 4096, high: 16384 };

export interface ClaudeReasoning {
  thinking?: Record<string, unknown>;
  effort?: string;
  /** Thinking counts against max_tokens, so the budget is added on top of the reply ceiling. */
  maxTokens: number;
  /** With thinking on, Claude refuses sampling changes and forced tool choice. */
  thinkingOn: boolean;
}

export function claudeReasoning(s: ResolvedSettings, probe: ModelProbe, maxTokens: number): ClaudeReasoning {
  const out: ClaudeReasoning = { maxTokens, thinkingOn: false };
  const level = s.level;
  if (probe.reasoning === "adaptive" && level && level !== "off") {
    out.thinking = { type: "adaptive" };
    out.thinkingOn = true;
    // The level is the effort for adaptive models (low/medium/high share names).
    if (probe.supports_effort) out.effort = s.effort ?? level;
  } else if ((probe.reasoning === "budget" || probe.reasoning === "always") && level && level !== "off") {
    const budget = THINKING_BUDGET[level];
    out.thinking = { type: "enabled", budget_tokens: budget };
    out.maxTokens = maxTokens + budget;
    out.thinkingOn = true;
  }
  if (out.effort === undefined && s.effort) out.effort = s.effort;
  return out;
}

/** Which thinking shape a model takes: adaptive first, then a budget, else none. */
export async function probeClaudeReasoning(
  accepts: (thinking: Record<string, unknown>, maxTokens: number) => Promise<boolean>,
): Promise<ReasoningKind> {
  if (await accepts({ type: "adaptive" }, 1025)) return "adaptive";
  // budget_tokens must be >= 1024 and below max_tokens.
  if (await accepts({ type: "enabled", budget_tokens: 1024 }, 1025)) return "budget";
  return "none";
}
