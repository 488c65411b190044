// Implements: the Bedrock ConverseStream shapes: the command input (messages, inferenceConfig,
// toolConfig, outputConfig, Claude thinking in additionalModelRequestFields), the streamed
// output union, and the SDK's exceptions mapped to UpstreamError.
import type { ContentBlock, ConverseStreamCommandInput, ConverseStreamOutput, Message, Tool } from "@aws-sdk/client-bedrock-runtime";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { claudeReasoning } from "./anthropic-thinking.ts";
import { abortReason, isRetryableStatus, networkFailure, truncatedStream } from "./errors.ts";
import { parseToolArgs } from "./http.ts";
import { resolveSettings } from "./settings-map.ts";
import type { ChatEvent, ChatMessage, ChatRequest, ModelProbe, StopReason, ToolSpec } from "./types.ts";

const GEOS = new Set(["us", "eu", "apac", "au", "jp", "ca", "us-gov", "global"]);

/** `<geo>.<vendor>.<model>` or `<vendor>.<model>`. */
export function parseBedrockId(id: string): { geo?: string; vendor: string; model: string } {
  const parts = id.split(".");
  if (parts.length >= 3 && GEOS.has(parts[0])) return { geo: parts[0], vendor: parts[1], model: parts.slice(2).join(".") };
  return { vendor: parts[0], model: parts.slice(1).join(".") };
}

/** "au.anthropic.claude-sonnet-4-5-20250929-v1:0" -> "Claude Sonnet 4.5 (AU)". */
export function bedrockLabel(id: string): string {
  const { geo, model } = parseBedrockId(id);
  const words = model
    .replace(/-v\d+(:\d+)?$/, "")
    .replace(/-\d{8}$/, "")
    .replace(/(\d)-(?=\d)/g, "$1.")
    .split("-")
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w));
  return words.join(" ") + (geo ? ` (${geo.toUpperCase()})` : "");
}

export const bedrockTool = (t: ToolSpec): Tool => ({
  toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters as never } },
});

export function converseInput(req: ChatRequest, probe: ModelProbe): ConverseStreamCommandInput {
  const s = resolveSettings(req, probe);
  const claude = parseBedrockId(req.model).vendor === "anthropic";
  const r = claude
    ? claudeReasoning(s, probe, req.maxTokens)
    : { maxTokens: req.maxTokens, thinkingOn: false, effort: s.effort, thinking: undefined };
  const input: ConverseStreamCommandInput = {
    modelId: req.model,
    messages: bedrockMessages(req.messages),
    inferenceConfig: { maxTokens: r.maxTokens },
  };
  if (req.system) input.system = [{ text: req.system }];
  if (!r.thinkingOn) {
    if (s.temperature !== undefined) input.inferenceConfig!.temperature = s.temperature;
    if (s.topP !== undefined) input.inferenceConfig!.topP = s.topP;
  }
  if (r.thinking) input.additionalModelRequestFields = { thinking: r.thinking } as never;
  if (r.effort) input.outputConfig = { effort: r.effort };
  const hasToolTurns = req.messages.some((m) => m.role === "tool_result" || (m.role === "assistant" && m.toolCalls?.length));
  // Converse has no "none" choice; tools stay declared only where earlier turns used them.
  if (req.tools?.length && (s.toolChoice !== "none" || hasToolTurns)) {
    input.toolConfig = { tools: req.tools.map(bedrockTool) };
    const c = s.toolChoice;
    if (c === "required" && !r.thinkingOn) input.toolConfig.toolChoice = { any: {} };
    else if (typeof c === "object" && !r.thinkingOn) input.toolConfig.toolChoice = { tool: { name: c.name } };
    else if (c === "auto") input.toolConfig.toolChoice = { auto: {} };
  }
  return input;
}

/** Consecutive same-role turns are merged: Converse requires strict alternation. */
export function bedrockMessages(messages: ChatMessage[]): Message[] {
  const out: Message[] = [];
  const push = (role: "user" | "assistant", blocks: ContentBlock[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content!.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === "user")
      push("user", [...(m.image ? [{ image: { format: "jpeg" as const, source: { bytes: m.image.data } } }] : []), { text: m.content }]);
    else if (m.role === "tool_result") {
      push("user", [{ toolResult: { toolUseId: m.callId, content: [{ text: m.content }], status: m.isError ? "error" : "success" } }]);
    } else {
      const blocks: ContentBlock[] = [];
      for (const c of m.toolCalls ?? []) if (Array.isArray(c.replay)) blocks.push(...(c.replay as ContentBlock[]));
      if (m.content) blocks.push({ text: m.content });
      for (const c of m.toolCalls ?? []) blocks.push({ toolUse: { toolUseId: c.id, name: c.name, input: (c.args ?? {}) as never } });
      if (blocks.length) push("assistant", blocks);
    }
  }
  return out;
}

const STOP: Record<string, StopReason> = { end_turn: "end", stop_sequence: "end", tool_use: "tool_use", max_tokens: "max_tokens" };

export async function* bedrockEvents(stream: AsyncIterable<ConverseStreamOutput>, signal?: AbortSignal): AsyncGenerator<ChatEvent> {
  const tools = new Map<number, { id: string; name: string; json: string }>();
  const reasoning = new Map<number, { text: string; signature?: string; redacted?: Uint8Array }>();
  let replay: ContentBlock[] = [];
  let stop: string | undefined;
  let usage: { inputTokens?: number; outputTokens?: number } | undefined;
  try {
    for await (const ev of stream) {
      if (ev.contentBlockStart?.start?.toolUse) {
        const t = ev.contentBlockStart.start.toolUse;
        tools.set(ev.contentBlockStart.contentBlockIndex ?? 0, { id: t.toolUseId ?? "", name: t.name ?? "", json: "" });
      } else if (ev.contentBlockDelta) {
        const i = ev.contentBlockDelta.contentBlockIndex ?? 0;
        const d = ev.contentBlockDelta.delta;
        if (d?.text) yield { type: "text", text: d.text };
        else if (d?.toolUse) {
          const t = tools.get(i);
          if (t) t.json += d.toolUse.input ?? "";
        } else if (d?.reasoningContent) {
          const r = reasoning.get(i) ?? { text: "" };
          r.text += d.reasoningContent.text ?? "";
          if (d.reasoningContent.signature) r.signature = d.reasoningContent.signature;
          if (d.reasoningContent.redactedContent) r.redacted = d.reasoningContent.redactedContent;
          reasoning.set(i, r);
        }
      } else if (ev.contentBlockStop) {
        const i = ev.contentBlockStop.contentBlockIndex ?? 0;
        const r = reasoning.get(i);
        const t = tools.get(i);
        if (r) {
          reasoning.delete(i);
          replay.push({
            reasoningContent: r.redacted ? { redactedContent: r.redacted } : { reasoningText: { text: r.text, signature: r.signature } },
          });
        } else if (t) {
          tools.delete(i);
          // Signed reasoning must go back with the toolUse turn; it rides on the first call.
          const extra = replay.length ? { replay } : {};
          replay = [];
          yield { type: "tool_call", id: t.id || `tooluse_${i}`, name: t.name, ...parseToolArgs(t.json), ...extra };
        }
      } else if (ev.messageStop) stop = ev.messageStop.stopReason ?? "end_turn";
      else if (ev.metadata) usage = ev.metadata.usage;
    }
  } catch (err) {
    throw bedrockFailure(err, signal);
  }
  // The SDK ends the iteration quietly when aborted: still report the abort, not a truncation.
  if (signal?.aborted) throw abortReason(signal);
  if (stop === undefined) throw truncatedStream("bedrock");
  if (usage) yield { type: "usage", inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
  yield { type: "stop", reason: STOP[stop] ?? "other" };
}

// Modelled Bedrock exceptions (HTTP and in-stream) and their statuses.
const NAME_STATUS: Record<string, number> = {
  ValidationException: 400,
  AccessDeniedException: 403,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ThrottlingException: 429,
  ServiceQuotaExceededException: 429,
  ModelNotReadyException: 429,
  InternalServerException: 500,
  ModelStreamErrorException: 502,
  ServiceUnavailableException: 503,
};

export function bedrockFailure(err: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return abortReason(signal);
  if (err instanceof UpstreamError) return err;
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number }; originalStatusCode?: number };
  const http = e?.$metadata?.httpStatusCode;
  const status = (http && http >= 400 ? http : undefined) ?? (e?.name ? NAME_STATUS[e.name] : undefined);
  if (status === undefined) return networkFailure("bedrock", err);
  return new UpstreamError(`bedrock ${e.name ?? "error"} (${status}): ${e.message ?? ""}`, status, isRetryableStatus(status));
}
