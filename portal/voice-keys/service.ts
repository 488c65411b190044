// Implements: Voice settings (portal); Endpoints: `GET /auth/voice/settings`, `PUT /auth/voice/key`,
// `DELETE /auth/voice/key/{provider}`, `PUT /auth/voice/engine`; fact 9 (409 `voice_key_required`
// stands in for a 403). The plaintext key lives only in this request: checked, sealed, forgotten.
import { ApiError, UpstreamError } from "../../shared/errors/api-error.ts";
import type { VoiceKeyCipher } from "../../shared/voice-keys/crypto.ts";
import type { VoiceKeyChecker } from "./key-check.ts";
import { BUILT_IN_LABEL, PROVIDER_LABELS } from "./providers.ts";
import {
  BUILT_IN_ENGINE,
  HOSTED_PROVIDERS,
  isHostedProvider,
  VOICE_KEY_MAX_CHARS,
  type HostedProvider,
  type VoiceEngine,
  type VoiceKeyEntry,
  type VoiceSettings,
} from "./schema.ts";
import type { VoiceKeyListRow, VoiceStore } from "./store.ts";

export interface VoiceServiceOptions {
  store: VoiceStore;
  /** Resolves once; the HKDF derivation is async in Web Crypto. */
  cipher: Promise<VoiceKeyCipher>;
  checker: VoiceKeyChecker;
  /** Milliseconds since epoch. */
  now: () => number;
}

const MASK = "\u2022".repeat(8);
const ENGINE_IDS = [BUILT_IN_ENGINE, ...HOSTED_PROVIDERS].join(", ");
const PROVIDER_IDS = HOSTED_PROVIDERS.join(" or ");

/** The visible tail: four characters, fewer for keys under 16 so that at most a quarter ever shows. */
export function tailOf(key: string): string {
  return key.slice(key.length - Math.min(4, Math.floor(key.length / 4)));
}

export const maskedOf = (last4: string) => MASK + last4;

/** A provider key as pasted: surrounding spaces dropped; printable ASCII only, 1 to 512 characters. */
export function parseVoiceKey(raw: unknown): string {
  if (typeof raw !== "string") throw new ApiError(400, "invalid_voice_key", "Send the provider's API key as the string field `key`.");
  const key = raw.replace(/^ +| +$/g, "");
  if (key.length === 0) throw new ApiError(400, "invalid_voice_key", "The key is empty: paste the API key from your provider's dashboard.");
  if (key.length > VOICE_KEY_MAX_CHARS) {
    throw new ApiError(
      400,
      "invalid_voice_key",
      `The key is ${key.length} characters long; provider keys are at most ${VOICE_KEY_MAX_CHARS}.`,
    );
  }
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(key)) {
    throw new ApiError(
      400,
      "invalid_voice_key",
      "The key contains control characters (a line break, tab or similar); paste the key alone.",
    );
  }
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError(
      400,
      "invalid_voice_key",
      "The key contains spaces or characters outside printable ASCII; provider keys have neither.",
    );
  }
  return key;
}

function parseProvider(raw: unknown): HostedProvider {
  if (isHostedProvider(raw)) return raw;
  const what = typeof raw === "string" ? `"${raw.slice(0, 40)}" is not a hosted voice provider` : "The field `provider` is missing";
  throw new ApiError(400, "unknown_voice_provider", `${what}; use ${PROVIDER_IDS}.`);
}

function toEntry(row: VoiceKeyListRow): VoiceKeyEntry {
  return {
    provider: row.provider,
    last4: row.last4,
    masked: maskedOf(row.last4),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    validated: row.validatedAt === null ? null : true,
    validated_at: row.validatedAt,
  };
}

function engines(keys: VoiceKeyListRow[]): VoiceEngine[] {
  const saved = new Map(keys.map((k) => [k.provider, k]));
  return [
    { id: BUILT_IN_ENGINE, label: BUILT_IN_LABEL, byo: false, provider: null, note: "Built in: speaks with no account and no key." },
    ...HOSTED_PROVIDERS.map((p) => {
      const label = PROVIDER_LABELS[p];
      const key = saved.get(p);
      const note = key
        ? `Your ${label} key ${maskedOf(key.last4)} is saved${key.validatedAt === null ? "" : ` and ${label} accepted it`}.`
        : `Needs your own ${label} API key: save one before choosing ${label}.`;
      return { id: p, label, byo: true, provider: p, note };
    }),
  ];
}

export class VoiceService {
  constructor(private readonly opts: VoiceServiceOptions) {}

  private seconds(): number {
    return Math.floor(this.opts.now() / 1000);
  }

  async settings(owner: string): Promise<VoiceSettings> {
    const { engine, keys } = await this.opts.store.read(owner);
    return { engine: engine ?? BUILT_IN_ENGINE, engines: engines(keys), keys: keys.map(toEntry) };
  }

  async saveKey(owner: string, body: Record<string, unknown>): Promise<VoiceSettings> {
    const provider = parseProvider(body.provider);
    const key = parseVoiceKey(body.key);
    const label = PROVIDER_LABELS[provider];
    let outcome;
    try {
      outcome = await this.opts.checker.check(provider, key);
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      throw new ApiError(502, "voice_key_check_failed", `${err.message}, so the key was not saved; try again in a moment.`);
    }
    if (!outcome.accepted) {
      const why = outcome.reason ? ` (${outcome.reason})` : "";
      throw new ApiError(
        400,
        "voice_key_rejected",
        `${label} refused this key${why}; it was not saved. Check that you copied the whole key.`,
      );
    }
    const now = this.seconds();
    const sealed = await (await this.opts.cipher).seal(owner, provider, key);
    await this.opts.store.saveKey({ owner, provider, sealed, last4: tailOf(key), now, validatedAt: now });
    return this.settings(owner);
  }

  async deleteKey(owner: string, rawProvider: string): Promise<VoiceSettings> {
    const provider = parseProvider(rawProvider);
    await this.opts.store.deleteKey(owner, provider, this.seconds());
    return this.settings(owner);
  }

  async chooseEngine(owner: string, body: Record<string, unknown>): Promise<VoiceSettings> {
    const engine = body.engine;
    if (engine !== BUILT_IN_ENGINE && !isHostedProvider(engine)) {
      const what = typeof engine === "string" ? `"${engine.slice(0, 40)}" is not a voice engine` : "The field `engine` is missing";
      throw new ApiError(400, "unknown_voice_engine", `${what}; use one of ${ENGINE_IDS}.`);
    }
    if (!(await this.opts.store.chooseEngine(owner, engine, this.seconds()))) {
      const label = PROVIDER_LABELS[engine as HostedProvider];
      throw new ApiError(409, "voice_key_required", `Save your ${label} API key first; ${label} speaks only with your own key.`);
    }
    return this.settings(owner);
  }
}
