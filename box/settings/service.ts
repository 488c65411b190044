// Implements: Box: settings — one record per credential subject, validated whole before any write.
// The box is the only writer of its database, so a write-through cache is never stale.
import type { CatalogueRow } from "../catalogue/catalogue.ts";
import { EFFORT_LEVELS, REASONING_LEVELS, type SettingsRecord, type TtsProviderInfo } from "../../shared/wire/settings.ts";
import { applySettingsPatch } from "./validate.ts";
import { defaultSettings } from "./defaults.ts";
import type { SettingsStore } from "./store.ts";
import { log } from "../../shared/util/log.ts";

export interface SettingsContext {
  catalogue(): CatalogueRow[];
  ttsProviders(): TtsProviderInfo[];
}

export class SettingsService {
  /** Stored records (null: none yet); defaults are merged at each read, see read(). */
  private readonly cache = new Map<string, Partial<SettingsRecord> | null>();
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Whether saves reach the database: probed at start, then what the latest save showed. */
  private savesWork: boolean | null = null;
  private readonly probe: Promise<boolean>;

  constructor(
    private readonly store: SettingsStore,
    private readonly ctx: SettingsContext,
    private readonly durable: boolean,
  ) {
    // At start, so a box whose settings table cannot take a save says so before anyone saves.
    this.probe = durable ? this.probeSaves() : Promise.resolve(false);
  }

  /** `persisted` of the read envelope: true only while a save would survive the box. */
  async persisted(): Promise<boolean> {
    if (!this.durable) return false;
    return this.savesWork ?? (await this.probe);
  }

  private probeSaves(): Promise<boolean> {
    return this.store.probeSave().then(
      () => (this.savesWork ??= true),
      (err) => {
        log.error("settings cannot be saved: GET /api/settings answers persisted: false", { error: String(err?.cause ?? err) });
        return (this.savesWork ??= false);
      },
    );
  }

  async read(subject: string): Promise<SettingsRecord> {
    let stored = this.cache.get(subject);
    if (stored === undefined) {
      stored = (await this.store.get(subject).catch(() => null)) as Partial<SettingsRecord> | null;
      this.cache.set(subject, stored);
    }
    // Stored fields win over today's defaults, so a record keeps what its owner chose; the defaults
    // follow the catalogue, which fills in when a provider that was down at boot comes back.
    return { ...defaultSettings(this.ctx.catalogue()), ...(stored ?? {}) } as SettingsRecord;
  }

  async envelope(subject: string) {
    return {
      settings: await this.read(subject),
      models: this.ctx.catalogue(),
      effort_levels: [...EFFORT_LEVELS],
      reasoning_levels: [...REASONING_LEVELS],
      tts_providers: this.ctx.ttsProviders(),
      persisted: await this.persisted(),
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
        this.savesWork = true;
      } catch (err) {
        this.savesWork = false;
        log.error("settings write failed", { error: String(err) });
      }
      this.cache.set(subject, next);
      return { ok: true as const, saved, settings: next };
    };
    // Writes for one subject run one after another so no update is lost.
    const prev = this.queues.get(subject) ?? Promise.resolve();
    const next = prev.then(run, run);
    this.queues.set(
      subject,
      next.catch(() => undefined),
    );
    return next;
  }
}
