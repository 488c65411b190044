// Implements: "What the service does" (model turns) and "Model catalogue row" ids of shape
// `<geo>.<vendor>.<model>` for AWS Bedrock ConverseStream. Credentials come from the AWS SDK's
// usual chain unless given; the runtime API has no model list, so the list is configuration.
import {
  BedrockRuntimeClient,
  ConverseStreamCommand,
  type BedrockRuntimeClientConfig,
  type ConverseStreamCommandInput,
} from "@aws-sdk/client-bedrock-runtime";
import { probeClaudeReasoning } from "./anthropic-thinking.ts";
import { bedrockEvents, bedrockFailure, bedrockLabel, bedrockTool, converseInput, parseBedrockId } from "./bedrock-wire.ts";
import { linkedAbort } from "./http.ts";
import { ProbeCache } from "./probe-cache.ts";
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

/** Offered when configuration names none: Claude inference profiles, in-country first. */
export const DEFAULT_BEDROCK_MODELS: ConfiguredModel[] = [
  { id: "au.anthropic.claude-sonnet-4-5-20250929-v1:0", tiers: ["quality"] },
  { id: "au.anthropic.claude-haiku-4-5-20251001-v1:0", tiers: ["fast"] },
  { id: "global.anthropic.claude-sonnet-4-5-20250929-v1:0", tiers: ["quality"] },
  { id: "global.anthropic.claude-haiku-4-5-20251001-v1:0", tiers: ["fast"] },
];

export interface BedrockOptions {
  region: string;
  /** Overrides the regional endpoint (tests point it at the local fake). */
  endpoint?: string;
  models?: ConfiguredModel[];
  /** Default: the SDK's credential chain (env, profile, SSO, instance role...). */
  credentials?: BedrockRuntimeClientConfig["credentials"];
  cache?: ProbeCache;
}

export class BedrockProvider implements LlmProvider {
  readonly id = "bedrock";
  private readonly client: BedrockRuntimeClient;
  private readonly cache: ProbeCache;
  private readonly where: string;

  constructor(private readonly options: BedrockOptions) {
    // One attempt: retry and fallback belong to the caller, reading UpstreamError.retryable.
    this.client = new BedrockRuntimeClient({
      region: options.region,
      endpoint: options.endpoint,
      credentials: options.credentials,
      maxAttempts: 1,
    });
    this.cache = options.cache ?? new ProbeCache();
    this.where = options.endpoint ?? `bedrock-runtime.${options.region}`;
  }

  async models(): Promise<ModelDecl[]> {
    return (this.options.models ?? DEFAULT_BEDROCK_MODELS).map((m) => {
      const decl: ModelDecl = { id: m.id, label: m.label ?? bedrockLabel(m.id), provider: this.id, tiers: m.tiers ?? [] };
      // The date inside the id (`...-20250929-v1:0`) is the release the catalogue compares copies by.
      const d = /-(\d{4})(\d{2})(\d{2})-v\d/.exec(m.id);
      if (d) decl.released = `${d[1]}-${d[2]}-${d[3]}`;
      return decl;
    });
  }

  /**
   * Probe requests, each ConverseStream with one "ping" message and `inferenceConfig.maxTokens: 1`,
   * dropped once the response headers arrive: sampling `temperature: 0.5, topP: 0.9`; effort
   * `outputConfig.effort` low, then xhigh and max; for vendor anthropic only, reasoning via
   * `additionalModelRequestFields.thinking` `{type: adaptive}`, else `{type: enabled,
   * budget_tokens: 1024}` (maxTokens 1025); other vendors report `none`; forced tool
   * `toolConfig.tools` + `toolChoice: {tool: {name}}`.
   */
  probe(modelId: string): Promise<ModelProbe> {
    return this.cache.getOrProbe(this.id, modelId, this.where, () => this.runProbe(modelId));
  }

  private async runProbe(modelId: string): Promise<ModelProbe> {
    const base = { modelId, messages: [{ role: "user" as const, content: [{ text: "ping" }] }], inferenceConfig: { maxTokens: 1 } };
    const attempt = (patch: Partial<ConverseStreamCommandInput>) => () => this.touch({ ...base, ...patch });
    await attempt({})();
    const claude = parseBedrockId(modelId).vendor === "anthropic";
    return runProbePlan({
      sampling: attempt({ inferenceConfig: { maxTokens: 1, temperature: 0.5, topP: 0.9 } }),
      effort: (e: EffortLevel) => attempt({ outputConfig: { effort: e } }),
      reasoning: async () =>
        claude
          ? probeClaudeReasoning((thinking, maxTokens) =>
              accepts(attempt({ additionalModelRequestFields: { thinking } as never, inferenceConfig: { maxTokens } })),
            )
          : "none",
      forcedTool: attempt({ toolConfig: { tools: [bedrockTool({ ...PROBE_TOOL })], toolChoice: { tool: { name: PROBE_TOOL.name } } } }),
    });
  }

  private async touch(input: ConverseStreamCommandInput): Promise<void> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), PROBE_TIMEOUT_MS);
    try {
      await this.client.send(new ConverseStreamCommand(input), { abortSignal: ctl.signal });
    } catch (err) {
      throw bedrockFailure(err, undefined);
    } finally {
      clearTimeout(timer);
    }
    // Accepted: the headers are all a probe needs, so the reply is not generated further.
    ctl.abort();
  }

  async *stream(req: ChatRequest): AsyncGenerator<ChatEvent> {
    const probe = (await this.cache.get(this.id, req.model, this.where)) ?? UNMEASURED_PROBE;
    const link = linkedAbort(req.signal);
    try {
      let out;
      try {
        out = await this.client.send(new ConverseStreamCommand(converseInput(req, probe)), { abortSignal: link.signal });
      } catch (err) {
        throw bedrockFailure(err, req.signal);
      }
      if (!out.stream) throw bedrockFailure(new Error("no event stream in the response"), req.signal);
      yield* bedrockEvents(out.stream, req.signal);
    } finally {
      link.release();
    }
  }
}
