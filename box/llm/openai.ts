// Implements: "What the service does" (model turns) for OpenAI-compatible chat completions,
// which also serves local Ollama, llama.cpp and vLLM servers.
import { apiUrl, send, streamFrom, touch, type FetchFn } from "./http.ts";
import { networkFailure } from "./errors.ts";
import { openAiBody, openAiEvents } from "./openai-wire.ts";
import { ProbeCache } from "./probe-cache.ts";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { accepts, PROBE_TIMEOUT_MS, isRefusal, PROBE_TOOL, runProbePlan } from "./probe-run.ts";
import {
  UNMEASURED_PROBE,
  type ChatEvent,
  type ChatRequest,
  type ConfiguredModel,
  type EffortLevel,
  type LlmProvider,
  type ModelDecl,
  type ModelProbe,
  type ReasoningKind,
} from "./types.ts";
import { warmConnection } from "../net/warm-connection.ts";

export interface OpenAiOptions {
  /** With or without a trailing /v1 (`http://127.0.0.1:11434/v1` and `https://api.openai.com` both work). */
  baseUrl: string;
  apiKey?: string;
  /** Labels/tiers for listed ids; the whole list when the server has no /v1/models. */
  models?: ConfiguredModel[];
  /** Ids from /v1/models matching this are not chat models and are left out. */
  exclude?: RegExp;
  cache?: ProbeCache;
  fetch?: FetchFn;
}

export const OPENAI_NON_CHAT = /embed|tts|whisper|dall-e|davinci|babbage|moderation|transcribe|image|audio|realtime|search|sora|rerank/i;

export class OpenAiProvider implements LlmProvider {
  readonly id = "openai";
  private readonly fetchFn: FetchFn;
  private readonly cache: ProbeCache;

  constructor(private readonly options: OpenAiOptions) {
    this.fetchFn = options.fetch ?? fetch;
    this.cache = options.cache ?? new ProbeCache();
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { "content-type": "application/json" };
    if (this.options.apiKey) h.authorization = `Bearer ${this.options.apiKey}`;
    return h;
  }

  async models(): Promise<ModelDecl[]> {
    const configured = this.options.models ?? [];
    let ids: string[];
    try {
      const res = await send(
        "openai",
        this.fetchFn,
        apiUrl(this.options.baseUrl, "/models"),
        { method: "GET", headers: this.headers() },
        AbortSignal.timeout(PROBE_TIMEOUT_MS),
      );
      const json = (await res.json()) as { data?: { id?: unknown }[] };
      ids = (json.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === "string");
      const exclude = this.options.exclude ?? OPENAI_NON_CHAT;
      ids = ids.filter((id) => !exclude.test(id));
    } catch (err) {
      // No list endpoint (or it is down): configuration is the list.
      if (configured.length === 0) throw err instanceof UpstreamError ? err : networkFailure("openai", err);
      ids = configured.map((m) => m.id);
    }
    return ids.map((id) => {
      const conf = configured.find((m) => m.id === id);
      return { id, label: conf?.label ?? id, provider: this.id, tiers: conf?.tiers ?? [] };
    });
  }

  /**
   * Probe requests, each `stream: true` with one "ping" message, read only to the status line:
   * base `max_tokens: 1` (if refused, `max_completion_tokens: 1`); sampling `temperature: 0.5,
   * top_p: 0.9`; effort `reasoning_effort` low, then xhigh and max; reasoning off
   * `reasoning_effort: "none"` (accepted: adaptive, refused: always, low refused: none);
   * forced tool `tools` + `tool_choice: {type: function, function: {name}}`.
   */
  probe(modelId: string): Promise<ModelProbe> {
    return this.cache.getOrProbe(this.id, modelId, this.options.baseUrl, () => this.runProbe(modelId));
  }

  private async runProbe(model: string): Promise<ModelProbe> {
    let tokensField: "max_tokens" | "max_completion_tokens" = "max_tokens";
    const attempt = (patch: Record<string, unknown>) => () =>
      this.touch({ model, messages: [{ role: "user", content: "ping" }], stream: true, [tokensField]: 1, ...patch });
    try {
      await attempt({})();
    } catch (err) {
      if (!isRefusal(err)) throw err;
      tokensField = "max_completion_tokens";
      await attempt({})(); // a second refusal means the model is unusable: the probe fails
    }
    const effort = (e: EffortLevel) => attempt({ reasoning_effort: e });
    const probe = await runProbePlan({
      sampling: attempt({ temperature: 0.5, top_p: 0.9 }),
      effort,
      reasoning: async (efforts): Promise<ReasoningKind> => {
        if (efforts.length === 0) return "none";
        return (await accepts(attempt({ reasoning_effort: "none" }))) ? "adaptive" : "always";
      },
      forcedTool: attempt({
        tools: [{ type: "function", function: PROBE_TOOL }],
        tool_choice: { type: "function", function: { name: PROBE_TOOL.name } },
      }),
    });
    if (tokensField !== "max_tokens") probe.max_tokens_field = tokensField;
    return probe;
  }

  private touch(body: Record<string, unknown>): Promise<void> {
    return touch("openai", this.fetchFn, apiUrl(this.options.baseUrl, "/chat/completions"), this.headers(), body, PROBE_TIMEOUT_MS);
  }

  warm(): Promise<void> {
    return warmConnection(this.fetchFn, apiUrl(this.options.baseUrl, "/models"));
  }

  async *stream(req: ChatRequest): AsyncGenerator<ChatEvent> {
    const probe = (await this.cache.get(this.id, req.model, this.options.baseUrl)) ?? UNMEASURED_PROBE;
    yield* streamFrom(
      "openai",
      this.fetchFn,
      apiUrl(this.options.baseUrl, "/chat/completions"),
      this.headers(),
      openAiBody(req, probe),
      req.signal,
      openAiEvents,
    );
  }
}
