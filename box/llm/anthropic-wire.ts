// Implements: the Anthropic Messages wire shapes: request body and the SSE event stream
// (message_start, content_block_start/delta/stop, message_delta, message_stop, ping, error).
import { claudeReasoning } from "./anthropic-thinking.ts";
import { abortReason, streamFailure, truncatedStream } from "./errors.ts";
import { parseToolArgs, readFailure } from "./http.ts";
import { resolveSettings } from "./settings-map.ts";
import { readSse } from "./sse.ts";
import type { ChatEvent, ChatMessage, ChatRequest, ModelProbe, StopReason, ToolChoice } from "./types.ts";

export function anthropicBody(req: ChatRequest, probe: ModelProbe): Record<string, unknown> {
  const s = resolveSettings(req, probe);
  const r = claudeReasoning(s, probe, req.maxTokens);
  const body: Record<string, unknown> = { model: req.model, max_tokens: r.maxTokens, stream: true };
  if (req.system) body.system = req.system;
  body.messages = anthropicMessages(req.messages);
  if (!r.thinkingOn) {
    if (s.temperature !== undefined) body.temperature = s.temperature;
    if (s.topP !== undefined) body.top_p = s.topP;
  }
  if (r.thinking) body.thinking = r.thinking;
  if (r.effort) body.output_config = { effort: r.effort };
  if (req.tools?.length) {
    body.tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
    if (s.toolChoice) body.tool_choice = anthropicToolChoice(s.toolChoice, r.thinkingOn);
  }
  return body;
}

function anthropicToolChoice(choice: ToolChoice, thinkingOn: boolean): unknown {
  if (choice === "auto" || choice === "none") return { type: choice };
  if (thinkingOn) return { type: "auto" }; // forced tool use is refused while thinking
  return choice === "required" ? { type: "any" } : { type: "tool", name: choice.name };
}

type Block = Record<string, unknown>;

/** Consecutive same-role turns are merged: tool results must sit in the one user turn after tool_use. */
export function anthropicMessages(messages: ChatMessage[]): { role: "user" | "assistant"; content: Block[] }[] {
  const out: { role: "user" | "assistant"; content: Block[] }[] = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === "user") {
      // The image first, then the words about it (Anthropic's advice for one image and a question).
      const image = m.image
        ? [{ type: "image", source: { type: "base64", media_type: m.image.mediaType, data: Buffer.from(m.image.data).toString("base64") } }]
        : [];
      push("user", [...image, { type: "text", text: m.content }]);
    } else if (m.role === "tool_result") {
      push("user", [{ type: "tool_result", tool_use_id: m.callId, content: m.content, ...(m.isError ? { is_error: true } : {}) }]);
    } else {
      const blocks: Block[] = [];
      for (const c of m.toolCalls ?? []) if (Array.isArray(c.replay)) blocks.push(...(c.replay as Block[]));
      if (m.content) blocks.push({ type: "text", text: m.content });
      for (const c of m.toolCalls ?? []) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.args ?? {} });
      if (blocks.length) push("assistant", blocks);
    }
  }
  return out;
}

const STOP: Record<string, StopReason> = { end_turn: "end", stop_sequence: "end", tool_use: "tool_use", max_tokens: "max_tokens" };

interface OpenBlock {
  type: string;
  id?: string;
  name?: string;
  json: string;
  thinking: string;
  signature?: string;
  data?: string;
}

/** Turns an Anthropic Messages SSE body into ChatEvents. */
export async function* anthropicEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<ChatEvent> {
  const blocks = new Map<number, OpenBlock>();
  let replay: Block[] = [];
  let input = 0;
  let output = 0;
  let stop: string | undefined;
  let done = false;
  try {
    for await (const msg of readSse(body)) {
      let ev: any;
      try {
        ev = JSON.parse(msg.data);
      } catch {
        continue;
      }
      const type = ev?.type ?? msg.event;
      if (type === "error") throw streamFailure("anthropic", ev.error ?? {});
      if (type === "message_start") {
        input = usageIn(ev.message?.usage) ?? input;
        output = ev.message?.usage?.output_tokens ?? output;
      } else if (type === "content_block_start") {
        const cb = ev.content_block ?? {};
        blocks.set(ev.index, {
          type: cb.type,
          id: cb.id,
          name: cb.name,
          json: "",
          thinking: cb.thinking ?? "",
          signature: cb.signature,
          data: cb.data,
        });
        if (cb.type === "text" && cb.text) yield { type: "text", text: cb.text };
      } else if (type === "content_block_delta") {
        const b = blocks.get(ev.index);
        const d = ev.delta ?? {};
        if (d.type === "text_delta" && d.text) yield { type: "text", text: d.text };
        else if (b && d.type === "input_json_delta") b.json += d.partial_json ?? "";
        else if (b && d.type === "thinking_delta") b.thinking += d.thinking ?? "";
        else if (b && d.type === "signature_delta") b.signature = d.signature;
      } else if (type === "content_block_stop") {
        const b = blocks.get(ev.index);
        blocks.delete(ev.index);
        if (b?.type === "thinking") replay.push({ type: "thinking", thinking: b.thinking, signature: b.signature ?? "" });
        else if (b?.type === "redacted_thinking") replay.push({ type: "redacted_thinking", data: b.data ?? "" });
        else if (b?.type === "tool_use") {
          // Signed thinking must go back with the tool_use turn; it rides on the first call.
          const extra = replay.length ? { replay } : {};
          replay = [];
          yield { type: "tool_call", id: b.id ?? `toolu_${ev.index}`, name: b.name ?? "", ...parseToolArgs(b.json), ...extra };
        }
      } else if (type === "message_delta") {
        if (ev.delta?.stop_reason) stop = ev.delta.stop_reason;
        output = ev.usage?.output_tokens ?? output;
        input = usageIn(ev.usage) ?? input;
      } else if (type === "message_stop") {
        done = true;
        break;
      }
    }
  } catch (err) {
    throw readFailure("anthropic", err, signal);
  }
  if (signal?.aborted) throw abortReason(signal);
  if (!done) throw truncatedStream("anthropic");
  yield { type: "usage", inputTokens: input, outputTokens: output };
  yield { type: "stop", reason: (stop && STOP[stop]) || "other" };
}

/** Input tokens include prompt-cache reads and writes. */
function usageIn(u: any): number | undefined {
  if (!u || typeof u.input_tokens !== "number") return undefined;
  return u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
}
