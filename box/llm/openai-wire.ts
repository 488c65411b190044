// Implements: the OpenAI chat-completions wire shapes (request body, streamed chunks), which
// OpenAI, Ollama, llama.cpp and vLLM servers all speak.
import { parseToolArgs, readFailure } from "./http.ts";
import { readSse } from "./sse.ts";
import { abortReason, streamFailure, truncatedStream } from "./errors.ts";
import { resolveSettings } from "./settings-map.ts";
import type { ChatEvent, ChatMessage, ChatRequest, ModelProbe, StopReason, ToolChoice } from "./types.ts";

export function openAiBody(req: ChatRequest, probe: ModelProbe): Record<string, unknown> {
  const s = resolveSettings(req, probe);
  const body: Record<string, unknown> = {
    model: req.model,
    messages: [...(req.system ? [{ role: "system", content: req.system }] : []), ...req.messages.map(openAiMessage)],
    stream: true,
    stream_options: { include_usage: true },
    [probe.max_tokens_field ?? "max_tokens"]: req.maxTokens,
  };
  if (s.temperature !== undefined) body.temperature = s.temperature;
  if (s.topP !== undefined) body.top_p = s.topP;
  // One field carries both: the explicit effort while reasoning is automatic, else the level.
  const effort = s.effort ?? (s.level === null ? undefined : s.level === "off" ? "none" : s.level);
  if (effort !== undefined) body.reasoning_effort = effort;
  if (req.tools?.length) {
    body.tools = req.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    if (s.toolChoice) body.tool_choice = openAiToolChoice(s.toolChoice);
  }
  return body;
}

function openAiToolChoice(choice: ToolChoice): unknown {
  return typeof choice === "object" ? { type: "function", function: { name: choice.name } } : choice;
}

function openAiMessage(m: ChatMessage): Record<string, unknown> {
  switch (m.role) {
    case "user":
      if (!m.image) return { role: "user", content: m.content };
      // A data URL: the one image form every OpenAI-compatible server (OpenAI, vLLM, llama.cpp, Ollama) reads.
      return {
        role: "user",
        content: [
          { type: "text", text: m.content },
          { type: "image_url", image_url: { url: `data:${m.image.mediaType};base64,${Buffer.from(m.image.data).toString("base64")}` } },
        ],
      };
    case "assistant":
      if (!m.toolCalls?.length) return { role: "assistant", content: m.content };
      return {
        role: "assistant",
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}) },
        })),
      };
    case "tool_result":
      return { role: "tool", tool_call_id: m.callId, content: m.content };
  }
}

const FINISH: Record<string, StopReason> = {
  stop: "end",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
};

interface Chunk {
  error?: Record<string, unknown>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  choices?: {
    index?: number;
    delta?: {
      content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
}

/** Turns the SSE body of a streamed chat completion into ChatEvents. */
export async function* openAiEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<ChatEvent> {
  const calls = new Map<number, { id: string; name: string; args: string }>();
  let finish: string | undefined;
  let usage: Chunk["usage"];
  let done = false;
  let callsSent = false;
  function* flushCalls(): Generator<ChatEvent> {
    if (callsSent) return;
    callsSent = true;
    for (const [i, c] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
      yield { type: "tool_call", id: c.id || `call_${i}`, name: c.name, ...parseToolArgs(c.args) };
    }
  }
  try {
    for await (const msg of readSse(body)) {
      if (msg.data === "[DONE]") {
        done = true;
        break;
      }
      let chunk: Chunk;
      try {
        chunk = JSON.parse(msg.data) as Chunk;
      } catch {
        continue; // keep-alive noise some servers send
      }
      if (chunk.error || msg.event === "error") throw streamFailure("openai", chunk.error ?? {});
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices ?? []) {
        if ((choice.index ?? 0) !== 0) continue;
        const delta = choice.delta ?? {};
        if (typeof delta.content === "string" && delta.content !== "") yield { type: "text", text: delta.content };
        for (const tc of delta.tool_calls ?? []) {
          const i = tc.index ?? 0;
          const c = calls.get(i) ?? { id: "", name: "", args: "" };
          if (tc.id) c.id = tc.id;
          if (tc.function?.name && !c.name) c.name = tc.function.name;
          if (tc.function?.arguments) c.args += tc.function.arguments;
          calls.set(i, c);
        }
        if (choice.finish_reason) {
          finish = choice.finish_reason;
          // Tool calls are complete at finish; don't wait for the trailing usage chunk.
          yield* flushCalls();
        }
      }
    }
  } catch (err) {
    throw readFailure("openai", err, signal);
  }
  if (signal?.aborted) throw abortReason(signal);
  if (!done && finish === undefined) throw truncatedStream("openai");
  yield* flushCalls();
  if (usage) yield { type: "usage", inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
  let reason = finish === undefined ? "other" : (FINISH[finish] ?? "other");
  if (reason === "end" && calls.size > 0) reason = "tool_use";
  yield { type: "stop", reason };
}
