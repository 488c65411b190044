// Implements: the provider switch-on rule: a provider is on when its base URL (OpenAI,
// Anthropic) or region (Bedrock) is set; the lead's env.ts maps BOX_* variables into these options.
import { AnthropicProvider, type AnthropicOptions } from "./anthropic.ts";
import { BedrockProvider, type BedrockOptions } from "./bedrock.ts";
import { OpenAiProvider, type OpenAiOptions } from "./openai.ts";
import { ProbeCache } from "./probe-cache.ts";
import type { LlmProvider, ModelDecl } from "./types.ts";

export interface LlmOptions {
  /** BOX_OPENAI_BASE_URL, BOX_OPENAI_API_KEY. */
  openai?: Omit<OpenAiOptions, "cache">;
  /** BOX_ANTHROPIC_BASE_URL, BOX_ANTHROPIC_API_KEY. */
  anthropic?: Omit<AnthropicOptions, "cache">;
  /** BOX_BEDROCK_REGION (credentials from the AWS SDK chain). */
  bedrock?: Omit<BedrockOptions, "cache">;
  /** Volume directory for the probe cache (`llm-probes.json`); memory only when absent. */
  probeDir?: string;
}

export function createProviders(options: LlmOptions): LlmProvider[] {
  const cache = new ProbeCache({ dir: options.probeDir });
  const out: LlmProvider[] = [];
  if (options.openai?.baseUrl) out.push(new OpenAiProvider({ ...options.openai, cache }));
  if (options.anthropic?.baseUrl) out.push(new AnthropicProvider({ ...options.anthropic, cache }));
  if (options.bedrock?.region) out.push(new BedrockProvider({ ...options.bedrock, cache }));
  return out;
}

export interface ListedModels {
  models: ModelDecl[];
  /** Which provider serves each model id (first provider wins on a clash). */
  byId: Map<string, LlmProvider>;
  /** Providers whose list could not be read, with why (their models are absent). */
  failures: { provider: string; error: unknown }[];
}

/** Every enabled provider's models; one provider being down does not hide the others. */
export async function listModels(providers: LlmProvider[]): Promise<ListedModels> {
  const result: ListedModels = { models: [], byId: new Map(), failures: [] };
  const lists = await Promise.allSettled(providers.map((p) => p.models()));
  lists.forEach((r, i) => {
    const provider = providers[i];
    if (r.status === "rejected") return void result.failures.push({ provider: provider.id, error: r.reason });
    for (const m of r.value) {
      if (result.byId.has(m.id)) continue;
      result.byId.set(m.id, provider);
      result.models.push(m);
    }
  });
  return result;
}
