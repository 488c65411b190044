// Implements: the catalogue fed by the enabled providers (their model lists and capability
// probes, cached on the volume) plus the configured list, which provider serves a model, and
// Readiness `llm_state` / `llm_detail`: each provider's live health, re-checked while it is down.
import { buildCatalogue, type CatalogueRow, type ModelDecl, type ModelProbe } from "../catalogue/catalogue.ts";
import type { ParsedModelList } from "../catalogue/config.ts";
import type { LlmProvider } from "../llm/types.ts";
import { isOutage, UpstreamHealth, type HealthTiming } from "../readiness/upstream-health.ts";
import { trackedProvider } from "./tracked-provider.ts";

export type RouterState = "starting" | "ready" | "not_configured" | "unavailable" | "failing";

export interface RouterOptions {
  allowOffshore: boolean;
  inCountry: boolean;
  /** Longest wait for one capability probe or re-check request. */
  timeoutMs?: number;
  /** Re-check backoff and the failure count that marks a provider failing. */
  health?: Partial<HealthTiming>;
}

/** One enabled provider: its last good model list (kept while it is down) and its health. */
interface Slot {
  provider: LlmProvider;
  tracked: LlmProvider;
  health: UpstreamHealth;
  models: ModelDecl[];
  probes: Map<string, ModelProbe>;
  /** The model whose reply last failed: a re-check asks it for one token. */
  failedModel: string | null;
}

const NOT_CONFIGURED = "no provider is set: BOX_OPENAI_BASE_URL, BOX_ANTHROPIC_BASE_URL and BOX_BEDROCK_REGION are all empty";

export class ModelRouter {
  catalogue: CatalogueRow[] = [];
  private byId = new Map<string, Slot>();
  private readonly slots: Slot[];

  constructor(
    providers: LlmProvider[],
    private readonly configured: ParsedModelList,
    private readonly options: RouterOptions,
  ) {
    this.slots = providers.map((provider) => this.slot(provider));
    this.rebuild();
  }

  /** Checks every provider once; never rejects: one that is down is re-checked with backoff. */
  async load(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.health.check()));
  }

  /** Stops the re-checks (box close). */
  close(): void {
    for (const s of this.slots) s.health.close();
  }

  /** All providers together: ready when one is. */
  get state(): RouterState {
    return this.slots.length ? overall(this.slots) : "not_configured";
  }

  /** What is wrong with the providers that are not ready; empty when all are. */
  get detail(): string {
    return this.slots.length ? downDetail(this.slots) : NOT_CONFIGURED;
  }

  /** Readiness of the chosen model: its provider's health, else why no provider serves it. */
  stateFor(modelId: string): { state: RouterState; detail: string } {
    if (!this.slots.length) return { state: "not_configured", detail: NOT_CONFIGURED };
    const slot = modelId ? this.byId.get(modelId) : undefined;
    if (slot) return { state: slot.health.state, detail: slot.health.detail };
    // A provider that is down may be the one that lists this model.
    const down = this.slots.filter((s) => s.health.state !== "ready");
    if (down.length) return { state: overall(down), detail: downDetail(down) };
    return {
      state: "unavailable",
      detail: modelId
        ? `no provider serves the chosen model "${modelId}"`
        : "the settings name no model and the catalogue has none to choose",
    };
  }

  /** The provider serving a model, wrapped so that each reply reports to its health. */
  providerFor(modelId: string): LlmProvider | null {
    return this.byId.get(modelId)?.tracked ?? null;
  }

  row(modelId: string): CatalogueRow | undefined {
    return this.catalogue.find((r) => r.id === modelId);
  }

  private slot(provider: LlmProvider): Slot {
    const slot = { provider, models: [], probes: new Map(), failedModel: null } as unknown as Slot;
    slot.health = new UpstreamHealth(provider.id, () => this.recheck(slot), this.options.health);
    slot.tracked = trackedProvider(provider, {
      succeeded: () => {
        slot.failedModel = null;
        slot.health.succeeded();
      },
      failed: (err, model) => {
        slot.failedModel = model;
        slot.health.failed(err);
      },
    });
    return slot;
  }

  /** Lists and probes one provider's models; after failed replies, also asks that model for a token. */
  private async recheck(slot: Slot): Promise<void> {
    const timeout = this.options.timeoutMs ?? 15_000;
    const models = await slot.provider.models();
    const probes = new Map<string, ModelProbe>();
    await Promise.all(
      models.map(async (m) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), timeout)));
        const probe = await Promise.race([slot.provider.probe(m.id), late]).catch(() => null);
        clearTimeout(timer);
        if (probe) probes.set(m.id, probe);
      }),
    );
    slot.models = models;
    slot.probes = probes;
    this.rebuild();
    if (!models.length && !this.configured.decls.some((d) => d.provider === slot.provider.id))
      throw new Error(`${slot.provider.id} lists no models`);
    // The list can answer while replies fail; only a reply shows that replies work again.
    if (slot.failedModel) await ping(slot.provider, slot.failedModel, timeout);
  }

  private rebuild(): void {
    const byId = new Map<string, Slot>();
    const listed: ModelDecl[] = [];
    const probes = new Map<string, ModelProbe>();
    for (const s of this.slots) {
      for (const m of s.models) {
        if (byId.has(m.id)) continue; // first provider wins on a clash
        byId.set(m.id, s);
        listed.push(m);
        const p = s.probes.get(m.id);
        if (p) probes.set(m.id, p);
      }
    }
    // Configured entries name their provider; route them to it when it is enabled.
    for (const d of this.configured.decls) {
      const s = this.slots.find((x) => x.provider.id === d.provider);
      if (s && !byId.has(d.id)) byId.set(d.id, s);
    }
    this.byId = byId;
    const decls = [...listed, ...this.configured.decls.filter((d) => !listed.some((l) => l.id === d.id))];
    const allProbes = new Map([...probes, ...this.configured.probes]);
    this.catalogue = buildCatalogue(decls, allProbes, { allowOffshore: this.options.allowOffshore, inCountry: this.options.inCountry });
  }
}

/** One token from the model; a refusal of the request still shows the provider answering. */
async function ping(provider: LlmProvider, model: string, timeoutMs: number): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    for await (const _ of provider.stream({
      model,
      system: "Reply with one word.",
      messages: [{ role: "user", content: "ping" }],
      maxTokens: 1,
      signal,
    }))
      break;
  } catch (err) {
    if (signal.aborted) throw new Error(`${provider.id} did not answer within ${timeoutMs} ms`);
    if (isOutage(err)) throw err;
  }
}

function overall(slots: Slot[]): RouterState {
  const states = slots.map((s) => s.health.state);
  if (states.includes("ready")) return "ready";
  if (states.includes("starting")) return "starting";
  return states.includes("failing") ? "failing" : "unavailable";
}

function downDetail(slots: Slot[]): string {
  return slots
    .filter((s) => s.health.state !== "ready")
    .map((s) => s.health.detail)
    .join("; ");
}
