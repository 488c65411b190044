// Implements: tools within a turn — built-in tools run on the server (with their `tool` frame),
// custom tools follow the Tool call lifecycle with the application holding the result (and get
// a `tool` frame too, once called).
import type { CustomTool } from "../../shared/wire/settings.ts";
import type { BuiltinTool } from "../tools/builtin/types.ts";
import { runBuiltin } from "../tools/builtin/run-builtin.ts";
import type { ToolSpec } from "../llm/types.ts";
import { checkToolArgs, offeredParameters } from "./tool-args.ts";
import { resultForModel, type FailReason, type ToolCalls } from "./tool-calls.ts";
import type { TurnEvent } from "../../shared/wire/turn-events.ts";

/** Viewer label of a custom tool without a `tool_phrases` line in the turn's language. */
export const CUSTOM_TOOL_LABEL = "Working on it";

export interface ToolRunContext {
  owner: string;
  timeZone: string;
  signal: AbortSignal;
  emit(e: TurnEvent): boolean;
  /** Says the holding line while an await_result call runs (response_to_user or tool_phrases). */
  hold(line: string): void;
  phraseFor(tool: string): string | null;
  /** Labels of the tools that ran, for the reply body. */
  labels: string[];
  /** Calls still waiting, so an interrupt can cancel them. */
  waiting: Set<string>;
}

export class TurnTools {
  constructor(
    private readonly builtins: ReadonlyMap<string, BuiltinTool>,
    private readonly calls: ToolCalls,
  ) {}

  specs(custom: CustomTool[] | null): ToolSpec[] {
    const out: ToolSpec[] = [...this.builtins.values()].map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters as unknown as Record<string, unknown>,
    }));
    for (const t of custom ?? []) {
      if (t.enabled)
        out.push({
          name: t.name,
          description: t.description,
          parameters: offeredParameters(t.parameters) as unknown as Record<string, unknown>,
        });
    }
    return out;
  }

  /** Runs one model tool call; returns the content for the model's tool_result slot. */
  async run(name: string, args: unknown, custom: CustomTool[] | null, ctx: ToolRunContext): Promise<{ content: string; isError: boolean }> {
    const builtin = this.builtins.get(name);
    if (builtin) {
      ctx.emit({ type: "tool", name, label: builtin.label });
      ctx.labels.push(builtin.label);
      const r = await runBuiltin(this.builtins, name, args, { timeZone: ctx.timeZone, signal: ctx.signal });
      return r.ok
        ? resultForModel({ ok: true, result: r.result })
        : resultForModel({ ok: false, reason: r.reason === "not_enabled" ? "not_enabled" : "host_error", error: r.error });
    }
    const callId = this.calls.newCallId();
    const def = custom?.find((t) => t.name === name);
    const failed = (reason: FailReason, error: string) => {
      ctx.emit({ type: "tool_call_failed", call_id: callId, name, reason });
      return resultForModel({ ok: false, reason, error });
    };
    if (!def?.enabled) return failed("not_enabled", `The tool "${name}" is not available.`);
    const checked = checkToolArgs(def.parameters, args);
    if (!checked.ok) return failed("invalid_args", `The arguments did not fit the tool: ${checked.why}.`.slice(0, 200));
    const started = performance.now();
    const outcome = this.calls.open(callId, ctx.owner, def.mode, def.timeout_seconds);
    if (def.mode === "await_result") ctx.waiting.add(callId);
    const delivered =
      ctx.emit({ type: "tool_call_started", call_id: callId, name, mode: def.mode }) &&
      ctx.emit({ type: "tool_call", call_id: callId, name, args: checked.args, mode: def.mode, timeout_seconds: def.timeout_seconds });
    if (!delivered) {
      this.calls.fail(callId, "session_closed");
      ctx.waiting.delete(callId);
      return failed("no_host", "The application could not be reached.");
    }
    // "While a tool runs": the call is now with the application, as a built-in would be running.
    const label = ctx.phraseFor(name) ?? CUSTOM_TOOL_LABEL;
    ctx.emit({ type: "tool", name, label });
    ctx.labels.push(label);
    if (def.mode === "fire_and_forget") {
      ctx.emit({ type: "tool_call_completed", call_id: callId, name, duration_ms: Math.round(performance.now() - started) });
      return resultForModel({ ok: true, result: { sent: true, note: "fire-and-forget: sent, not confirmed" } });
    }
    const line = checked.holdingLine ?? ctx.phraseFor(name);
    if (line) ctx.hold(line);
    const result = await outcome;
    ctx.waiting.delete(callId);
    if (result.ok) {
      ctx.emit({ type: "tool_call_completed", call_id: callId, name, duration_ms: Math.round(performance.now() - started) });
      return resultForModel(result);
    }
    ctx.emit({ type: "tool_call_failed", call_id: callId, name, reason: result.reason });
    return resultForModel(result);
  }
}
