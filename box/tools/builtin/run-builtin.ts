// Implements: Tool frames — a built-in run never throws into the turn: every outcome is a result for
// the model or a failure with a `tool_call_failed` reason and an error of at most 200 characters.
import { UpstreamError } from "../../../shared/errors/api-error.ts";
import { ToolArgsError, ToolError, type BuiltinTool, type ToolContext } from "./types.ts";

/** Spec limit on tool error text. */
export const MAX_TOOL_ERROR_CHARS = 200;

export type BuiltinOutcome =
  | { ok: true; result: string }
  | {
      ok: false;
      reason: "invalid_args" | "host_error" | "cancelled" | "not_enabled";
      /** For the model, marked as application data by the caller. */
      error: string;
      /** For the operator's log only. */
      detail?: string;
    };

function cap(text: string): string {
  return text.length <= MAX_TOOL_ERROR_CHARS ? text : `${text.slice(0, MAX_TOOL_ERROR_CHARS - 1)}…`;
}

/** Runs `name` from the switched-on set; unknown or switched-off names answer `not_enabled`. */
export async function runBuiltin(
  tools: ReadonlyMap<string, BuiltinTool>,
  name: string,
  args: unknown,
  ctx: ToolContext,
): Promise<BuiltinOutcome> {
  const tool = tools.get(name);
  if (!tool) return { ok: false, reason: "not_enabled", error: cap(`The tool "${name}" is not available here.`) };
  try {
    const result = await tool.run(args, ctx);
    return { ok: true, result };
  } catch (err) {
    if (ctx.signal.aborted) return { ok: false, reason: "cancelled", error: "The tool call was cancelled.", detail: String(err) };
    if (err instanceof ToolArgsError) return { ok: false, reason: "invalid_args", error: cap(err.message) };
    if (err instanceof ToolError) return { ok: false, reason: "host_error", error: cap(err.message), detail: err.detail };
    if (err instanceof UpstreamError) return { ok: false, reason: "host_error", error: cap(err.message) };
    return {
      ok: false,
      reason: "host_error",
      error: "The tool failed.",
      detail: err instanceof Error ? (err.stack ?? err.message) : String(err),
    };
  }
}
