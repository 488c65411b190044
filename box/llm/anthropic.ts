// Implements: "What the service does" (model turns) for the Anthropic Messages API.
import { anthropicBody, anthropicEvents } from "./anthropic-wire.ts";
import { probeClaudeReasoning } from "./anthropic-thinking.ts";
import { networkFailure } from "./errors.ts";
import { apiUrl, send, streamFrom, touch, type FetchFn } from "./http.ts";
import { ProbeCache } from "./probe-cache.ts";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { accepts, PROBE_TIMEOUT_MS, PROBE_TOOL, runProbePlan } from "./probe-run.ts";
import {
  UNMEASURED_PROBE,
  type ChatEvent,
  type ChatRequest,
  type ConfiguredModel,
  type EffortLevel,
  type LlmProvider,
  type ModelDecl,
  type ModelProbe,
} from "./types.ts";
import { warmConnection } from "../net/warm-connection.ts";

export const ANTHROPIC_VERSION = "2023-06-01";

export interface AnthropicOptions {
  /** `https://api.anthropic.com` (a trailing /v1 is tolerated). */
  baseUrl: string;
  apiKey?: string;
  /** Labels/tiers for listed ids; the whole list when /v1/models cannot be read. */
  models?: ConfiguredModel[];
  cache?: ProbeCache;
  fetch?: FetchFn;
}

export class AnthropicProvider implements LlmProvider {
  readonly id = "anthropic";
  private readonly fetchFn: FetchFn;
  private readonly cache: ProbeCache;

  constructor(private readonly options: AnthropicOptions) {
    this.fetchFn = options.fetch ?? fetch;
    this.cache = options.cache ?? new ProbeCache();
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { "content-type": "application/json", "anthropic-version": ANTHROPIC_VERSION };
    if (this.options.apiKey) h["x-api-key"] = this.options.apiKey;
    return h;
  }

  async models(): Promise<ModelDecl[]> {
    const configured = this.options.models ?? [];
    let listed: { id: string; label: string; released?: string }[] = [];
    try {
      let after: string | undefined;
      // Paged with after_id until has_more is false.
      for (let page = 0; page < 50; page++) {
        const q = `?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ""}`;
        const res = await send(
          "anthropic",
          this.fetchFn,
          apiUrl(this.options.baseUrl, `/models${q}`),
          { method: "GET", headers: this.headers() },
          AbortSignal.timeout(PROBE_TIMEOUT_MS),
        );
        const json = (await res.json()) as {
          data?: { id: string; display_name?: string; created_at?: string }[];
          has_more?: boolean;
          last_id?: string;
        };
        listed.push(...(json.data ?? []).map((m) => ({ id: m.id, label: m.display_name ?? m.id, released: isoDate(m.created_at) })));
        if (!json.has_more || !json.last_id) break;
        after = json.last_id;
      }
    } catch (err) {
      if (configured.length === 0) throw err instanceof UpstreamError ? err : networkFailure("anthropic", err);
      listed = configured.map((m) => ({ id: m.id, label: m.label ?? m.id }));
    }
    return listed.map(({ id, label, released }) => {
      const conf = configured.find((m) => m.id === id);
      const decl: ModelDecl = { id, label: conf?.label ?? label, provider: this.id, tiers: conf?.tiers ?? [] };
      if (released) decl.released = released;
      return decl;
    });
  }

  /**
   * Probe requests, each `stream: true`, one "ping" message, `max_tokens: 1`, read only to the
   * status line: sampling `temperature: 0.5, top_p: 0.9`; effort `output_config.effort` low, then
   * xhigh and max; reasoning `thinking: {type: adaptive}` (max_tokens 1025), else
   * `thinking: {type: enabled, budget_tokens: 1024}` (max_tokens 1025); forced tool `tools` +
   * `tool_choice: {type: tool, name}`. Anthropic offers no way to tell `always` from `budget`.
   */
  probe(modelId: string): Promise<ModelProbe> {
    return this.cache.getOrProbe(this.id, modelId, this.options.baseUrl, () => this.runProbe(modelId));
  }

  private async runProbe(model: string): Promise<ModelProbe> {
    const attempt = (patch: Record<string, unknown>) => () =>
      this.touch({ model, max_tokens: 1, messages: [{ role: "user", content: "ping" }], stream: true, ...patch });
    await attempt({})(); // the model must answer a plain request, else the probe fails
    return runProbePlan({
      sampling: attempt({ temperature: 0.5, top_p: 0.9 }),
      effort: (e: EffortLevel) => attempt({ output_config: { effort: e } }),
      reasoning: () => probeClaudeReasoning((thinking, maxTokens) => accepts(attempt({ thinking, max_tokens: maxTokens }))),
      forcedTool: attempt({
        tools: [{ name: PROBE_TOOL.name, description: PROBE_TOOL.description, input_schema: PROBE_TOOL.parameters }],
        tool_choice: { type: "tool", name: PROBE_TOOL.name },
      }),
    });
  }

  private touch(body: Record<string, unknown>): Promise<void> {
    return touch("anthropic", this.fetchFn, apiUrl(this.options.baseUrl, "/messages"), this.headers(), body, PROBE_TIMEOUT_MS);
  }

  warm(): Promise<void> {
    return warmConnection(this.fetchFn, apiUrl(this.options.baseUrl, "/models"));
  }

  async *stream(req: ChatRequest): AsyncGenerator<ChatEvent> {
    const probe = (await this.cache.get(this.id, req.model, this.options.baseUrl)) ?? UNMEASURED_PROBE;
    yield* streamFrom(
      "anthropic",
      this.fetchFn,
      apiUrl(this.options.baseUrl, "/messages"),
      this.headers(),
      anthropicBody(req, probe),
      req.signal,
      anthropicEvents,
    );
  }
}

/** `created_at` (RFC 3339) as the catalogue's `YYYY-MM-DD` release date. */
function isoDate(v: string | undefined): string | undefined {
  return v && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : undefined;
}
