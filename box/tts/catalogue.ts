// Implements: "Voice catalogue (`GET /api/voices`)" and its Limits row: one group per voice
// provider with a state and a one-line reason, every voice flattened (the built-in engine first,
// then by name), providers fetched in parallel each with its own timeout, answers cached 5 minutes
// per provider and caller and a failed fetch 30 seconds; `refresh` refetches. A failing provider
// never fails the call: its group says why.
import { VoiceProviderError, type VoiceEngine, type VoiceFailure, type VoiceRow } from "./engine.ts";

export type GroupState = "ready" | "empty" | "starting" | VoiceFailure;

/** A voice row as the catalogue serves it. */
export interface CatalogueRow extends VoiceRow {
  preview: string;
  recommended: boolean;
}

export interface CatalogueGroup {
  provider: string;
  label: string;
  state: GroupState;
  reason: string;
  local: boolean;
  voices: CatalogueRow[];
}

/** One provider as a caller can reach it: an engine, or why there is none. */
export interface ProviderSlot {
  provider: string;
  label: string;
  local: boolean;
  engine: VoiceEngine | null;
  /** Why `engine` is null: the group's state and reason. */
  missing?: { state: VoiceFailure; reason: string };
  /**
   * Whose account answers (the cache is per provider AND caller: a caller's own key gets its own
   * entry, the box's account is shared by everyone who uses it).
   */
  account: string;
  /** The voice a caller would hear from this provider (marked `recommended`). */
  recommended?: string | null;
  /** Rows this caller may see (another credential's cloned voice is not theirs); default all. */
  visible?: (row: VoiceRow) => boolean;
}

export interface CatalogueOptions {
  /** Milliseconds since epoch (tests move it). */
  now?: () => number;
  okTtlMs?: number;
  failTtlMs?: number;
  /** Each provider's own limit on one voices fetch. */
  timeoutMs?: number;
}

export const CATALOGUE_DEFAULTS = { okTtlMs: 5 * 60_000, failTtlMs: 30_000, timeoutMs: 8_000 } as const;

type Fetched = { rows: VoiceRow[] } | { state: VoiceFailure; reason: string };

const sentence = (text: string) => {
  const one = text.replace(/\s+/g, " ").trim();
  return /[.!?]$/.test(one) ? one : `${one}.`;
};

/** What a provider's failure says in its group: the state and a one-line reason. */
export function failureOf(err: unknown, label: string): { state: VoiceFailure; reason: string } {
  if (err instanceof VoiceProviderError) return { state: err.failure, reason: sentence(err.message) };
  return { state: "refused", reason: sentence(`${label} could not list its voices: ${(err as Error)?.message ?? String(err)}`) };
}

export class VoiceCatalogue {
  private readonly cache = new Map<string, { at: number; ttl: number; value: Fetched }>();
  private readonly inflight = new Map<string, Promise<Fetched>>();
  private readonly now: () => number;
  private readonly o: Required<Omit<CatalogueOptions, "now">>;

  constructor(options: CatalogueOptions = {}) {
    this.now = options.now ?? Date.now;
    this.o = { ...CATALOGUE_DEFAULTS, ...options } as Required<Omit<CatalogueOptions, "now">>;
  }

  /** Every slot's group, fetched in parallel; `refresh` ignores what is cached. */
  async groups(slots: readonly ProviderSlot[], refresh = false): Promise<CatalogueGroup[]> {
    return Promise.all(slots.map((slot) => this.group(slot, refresh)));
  }

  /** The rows of every group flattened: the built-in engine's first, then by name. */
  static flatten(groups: readonly CatalogueGroup[], builtIn: string): CatalogueRow[] {
    const rows = groups.flatMap((g) => g.voices);
    return rows.sort(
      (a, b) =>
        Number(b.provider === builtIn) - Number(a.provider === builtIn) ||
        a.name.localeCompare(b.name) ||
        a.provider.localeCompare(b.provider) ||
        a.id.localeCompare(b.id),
    );
  }

  /** Drops what is cached for a provider (all callers), e.g. after a voice was cloned. */
  forget(provider: string): void {
    for (const k of [...this.cache.keys()]) if (k.startsWith(`${provider}\u0000`)) this.cache.delete(k);
  }

  private async group(slot: ProviderSlot, refresh: boolean): Promise<CatalogueGroup> {
    const base = { provider: slot.provider, label: slot.label, local: slot.local };
    if (!slot.engine) {
      const missing = slot.missing ?? { state: "refused" as const, reason: `${slot.label} is not configured on this box.` };
      return { ...base, state: missing.state, reason: missing.reason, voices: [] };
    }
    if (!slot.engine.ready)
      return { ...base, state: "starting", reason: `${slot.label} is still starting; ask again in a few seconds.`, voices: [] };
    const fetched = await this.fetch(slot, refresh);
    if (!("rows" in fetched)) return { ...base, state: fetched.state, reason: fetched.reason, voices: [] };
    // The cache holds the account's whole list; each caller is shown their part of it.
    const voices = fetched.rows
      .filter((r) => slot.visible?.(r) ?? true)
      .map((r) => ({
        ...r,
        preview: `/api/voice/preview?provider=${encodeURIComponent(slot.provider)}&voice=${encodeURIComponent(r.id)}`,
        recommended: r.id === slot.recommended,
      }));
    if (voices.length === 0) return { ...base, state: "empty", reason: `${slot.label} has no voices on this account.`, voices };
    return { ...base, state: "ready", reason: "", voices };
  }

  private fetch(slot: ProviderSlot, refresh: boolean): Promise<Fetched> {
    const key = `${slot.provider}\u0000${slot.account}`;
    const hit = this.cache.get(key);
    if (!refresh && hit && this.now() - hit.at < hit.ttl) return Promise.resolve(hit.value);
    const running = this.inflight.get(key);
    if (running) return running;
    const p = this.load(slot).then((value) => {
      this.cache.set(key, { at: this.now(), ttl: "rows" in value ? this.o.okTtlMs : this.o.failTtlMs, value });
      return value;
    });
    this.inflight.set(key, p);
    return p.finally(() => this.inflight.delete(key));
  }

  private async load(slot: ProviderSlot): Promise<Fetched> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new VoiceProviderError(
              `${slot.label} did not list its voices within ${Math.round(this.o.timeoutMs / 100) / 10} s`,
              0,
              true,
              "timed_out",
            ),
          ),
        this.o.timeoutMs,
      );
    });
    try {
      const rows = await Promise.race([Promise.resolve().then(() => slot.engine!.voices()), limit]);
      return { rows };
    } catch (err) {
      return failureOf(err, slot.label);
    } finally {
      clearTimeout(timer);
    }
  }
}
