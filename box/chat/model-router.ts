// Implements: the catalogue fed by the enabled providers (their model lists and capability
// probes, cached on the volume) plus the configured list, and which provider serves a model.
import { buildCatalogue, type CatalogueRow, type ModelDecl, type ModelProbe } from "../catalogue/catalogue.ts";
import type { ParsedModelList } from "../catalogue/config.ts";
import { listModels } from "../llm/registry.ts";
import type { LlmProvider } from "../llm/types.ts";

export type RouterState = "starting" | "ready" | "not_configured" | "unavailable";

export class ModelRouter {
  catalogue: CatalogueRow[] = [];
  state: RouterState;
  detail = "";
  private byId = new Map<string, LlmProvider>();

  constructor(
    private readonly providers: LlmProvider[],
    private readonly configured: ParsedModelList,
    private readonly options: { allowOffshore: boolean; inCountry: boolean; timeoutMs?: number },
  ) {
    this.state = providers.length ? "starting" : "not_configured";
    this.detail = providers.length ? "reading the providers' model lists" : "no language-model provider is configured (BOX_OPENAI_BASE_URL, BOX_ANTHROPIC_BASE_URL or BOX_BEDROCK_REGION)";
    this.rebuild([], new Map());
  }

  /** Lists and probes every provider's models; a slow or failing provider does not block the others. */
  async load(): Promise<void> {
    if (!this.providers.length) return;
    const timeout = this.options.timeoutMs ?? 15_000;
    const listed = await listModels(this.providers);
    const probes = new Map<string, ModelProbe>();
    await Promise.all(
      listed.models.map(async (m) => {
        const provider = listed.byId.get(m.id)!;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), timeout)));
        const probe = await Promise.race([provider.probe(m.id), late]).catch(() => null);
        clearTimeout(timer);
        if (probe) probes.set(m.id, probe);
      }),
    );
    this.byId = listed.byId;
    // Configured entries name their provider; route them to it when it is enabled.
    for (const d of this.configured.decls) {
      const p = this.providers.find((x) => x.id === d.provider);
      if (p && !this.byId.has(d.id)) this.byId.set(d.id, p);
    }
    this.rebuild(listed.models, probes);
    const failures = listed.failures.map((f) => `${f.provider}: ${(f.error as Error)?.message ?? f.error}`);
    if (this.byId.size > 0) {
      this.state = "ready";
      this.detail = failures.length ? `some providers failed: ${failures.join("; ")}` : "";
    } else {
      this.state = "unavailable";
      this.detail = failures.length ? failures.join("; ") : "the providers offer no models";
    }
  }

  private rebuild(listed: ModelDecl[], probes: Map<string, ModelProbe>): void {
    const decls = [...listed, ...this.configured.decls.filter((d) => !listed.some((l) => l.id === d.id))];
    const allProbes = new Map([...probes, ...this.configured.probes]);
    this.catalogue = buildCatalogue(decls, allProbes, { allowOffshore: this.options.allowOffshore, inCountry: this.options.inCountry });
  }

  providerFor(modelId: string): LlmProvider | null {
    return this.byId.get(modelId) ?? null;
  }

  row(modelId: string): CatalogueRow | undefined {
    return this.catalogue.find((r) => r.id === modelId);
  }
}
