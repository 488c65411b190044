// Implements: Box: settings — one record per credential subject, validated whole before any write.
// The box is the only writer of its database, so a write-through cache is never stale.
import type { CatalogueRow } from "../catalogue/catalogue.ts";
import { EFFORT_LEVELS, REASONING_LEVELS, type SettingsRecord, type TtsProviderInfo } from "./schema.ts";
import { applySettingsPatch } from "./validate.ts";
import { defaultSettings } from "./defaults.ts";
import type { SettingsStore } from "./store.ts";

export interface SettingsContext {
  catalogue(): CatalogueRow[];
  ttsProviders(): TtsProviderInfo[];
}

export class SettingsService {
  private readonly cache = new Map<string, SettingsRecord>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: SettingsStore,
    private readonly ctx: SettingsContext,
    private readonly durable: boolean,
  ) {}

  async read(subject: string): Promise<SettingsRecord> {
    const hit = this.cache.get(subject);
    if (hit) return hit;
    const stored = await this.store.get(subject).catch(() => null);
    // Stored fields win over today's defaults, so a record keeps what its owner chose.
    const record = { ...defaultSettings(this.ctx.catalogue()), ...(stored ?? {}) } as SettingsRecord;
    this.cache.set(subject, record);
    return record;
  }

  async envelope(subject: string) {
    return {
      settings: await this.read(subject),
      models: this.ctx.catalogue(),
      effort_levels: [...EFFORT_LEVELS],
      reasoning_levels: [...REASONING_LEVELS],
      tts_providers: this.ctx.ttsProviders(),
      persisted: this.durable,
    };
  }

  /** Validates the whole patch first; a refusal throws and nothing from the request is kept. */
  write(subject: string, body: unknown): Promise<{ ok: true; saved: boolean; settings: SettingsRecord }> {
    const run = async () => {
      const current = await this.read(subject);
      const next = applySettingsPatch(current, body, {
        catalogue: this.ctx.catalogue(),
        ttsProviders: this.ctx.ttsProviders().map((p) => p.id),
      });
      let saved = false;
      try {
        await this.store.put(subject, next);
        saved = this.durable;
      } catch (err) {
        console.error(JSON.stringify({ level: "error", msg: "settings write failed", error: String(err) }));
      }
      this.cache.set(subject, next);
      return { ok: true as const, saved, settings: next };
    };
    // Writes for one subject run one after another so no update is lost.
    const prev = this.queues.get(subject) ?? Promise.resolve();
    const next = prev.then(run, run);
    this.queues.set(subject, next.catch(() => undefined));
    return next;
  }
}
