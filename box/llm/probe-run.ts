// Implements: "Model catalogue row" capability flags as probe results. Each capability is one
// tiny real request; a 400/422 answer means the model refuses that field, anything else that
// is not a success is a failure of the probe itself (nothing is cached then).
import { UpstreamError } from "../../shared/errors/api-error.ts";
import type { EffortLevel, ModelProbe, ReasoningKind } from "./types.ts";
import { defaultReasoningFor } from "./settings-map.ts";

/** A probe or model-list request that has not answered by then counts as unreachable. */
export const PROBE_TIMEOUT_MS = 30_000;

/** Sends one probe request; resolves once the server accepted it (status 2xx). */
export type ProbeSend = () => Promise<void>;

export function isRefusal(err: unknown): boolean {
  return err instanceof UpstreamError && (err.status === 400 || err.status === 422);
}

export async function accepts(send: ProbeSend): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (err) {
    if (isRefusal(err)) return false;
    throw err;
  }
}

export interface ProbePlan {
  /** temperature + top_p together, since the settings record may carry both. */
  sampling: ProbeSend;
  /** One request per effort value (low first; xhigh and max only if low was accepted). */
  effort?: (effort: EffortLevel) => ProbeSend;
  /** Decides the reasoning kind with as many requests as that takes (given the efforts accepted). */
  reasoning: (efforts: EffortLevel[]) => Promise<ReasoningKind>;
  /** A tool list plus a tool choice naming that tool. */
  forcedTool: ProbeSend;
}

export async function runProbePlan(plan: ProbePlan): Promise<ModelProbe> {
  const supportsSampling = await accepts(plan.sampling);
  const efforts: EffortLevel[] = [];
  if (plan.effort && (await accepts(plan.effort("low")))) {
    efforts.push("low", "medium", "high");
    for (const e of ["xhigh", "max"] as const) if (await accepts(plan.effort(e))) efforts.push(e);
  }
  const reasoning = await plan.reasoning(efforts);
  const probe: ModelProbe = {
    supports_sampling: supportsSampling,
    supports_effort: efforts.length > 0,
    effort_max: efforts.includes("max"),
    reasoning,
    default_reasoning: defaultReasoningFor(reasoning),
    efforts,
  };
  if (!(await accepts(plan.forcedTool))) probe.forced_tool_choice_supported = false;
  return probe;
}

/** A one-property tool used by the forced-tool-choice probes. */
export const PROBE_TOOL = {
  name: "probe_echo",
  description: "Echo a word.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
} as const;
