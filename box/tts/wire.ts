// Wiring of the voice engines at boot: the engine the box boots on (BOX_TTS), the other providers
// it can reach (its own accounts from BOX_* keys; people's own keys from the shared database), and
// who speaks for whom (accounts.ts). Providers without an account of the box still appear, so a
// person who saved a key on the portal can speak with it.
import type { Client } from "@libsql/client";
import { VoiceKeyCipher } from "../../shared/voice-keys/crypto.ts";
import type { BoxEnv } from "../env.ts";
import type { KeyTable } from "../auth/key-table.ts";
import { voiceSlotField } from "../../shared/wire/settings.ts";
import type { SettingsService } from "../settings/service.ts";
import { VoiceAccounts, type ProviderEntry } from "./accounts.ts";
import { SharedVoiceChoices } from "./voice-choices.ts";
import { CloneOwners } from "./clone-owners.ts";
import type { VoiceEngine, VoiceEngineInfo } from "./engine.ts";

/** Makes a client of a hosted or self-hosted provider (the engines in box/tts/<provider>/). */
export type EngineMaker = (o: { baseUrl: string; apiKey?: string }) => VoiceEngine;

export interface VoiceWiring {
  accounts: VoiceAccounts;
  /** `tts_providers` of the settings envelope: the engines this box can speak with. */
  ttsProviders: (VoiceEngineInfo & { id: string })[];
}

export const ESPEAK_INFO: VoiceEngineInfo = { label: "espeak-ng (built in)", local: true, byo: false, clone: false, prepare: false };

const LABELS: Record<string, VoiceEngineInfo> = {
  espeak: ESPEAK_INFO,
  chatterbox: { label: "Chatterbox (self-hosted)", local: true, byo: false, clone: true, prepare: true },
  elevenlabs: { label: "ElevenLabs", local: false, byo: true, clone: false, prepare: false },
  cartesia: { label: "Cartesia", local: false, byo: true, clone: false, prepare: false },
};

/** The person behind a credential subject: `owner:<e-mail>` directly, a key through its row. */
export function ownerOfSubject(keyTable: KeyTable | null): (subject: string) => Promise<string | undefined> {
  return async (subject) => {
    if (subject.startsWith("owner:")) return subject.slice("owner:".length);
    if (!subject.startsWith("key:") || !keyTable) return undefined;
    return (await keyTable.lookup(subject.slice(4)))?.owner ?? undefined;
  };
}

export async function wireVoices(o: {
  env: BoxEnv["tts"];
  espeak: VoiceEngine | null;
  makers: Partial<Record<"chatterbox" | "elevenlabs" | "cartesia", EngineMaker>>;
  sharedDb: Client | null;
  keyTable: KeyTable | null;
  settings: SettingsService | null;
  /** A person's key that failed is tried again after this long (BOX_READINESS_RETRY_MS). */
  retryMs?: number;
  /** BOX_API_KEYS: their holders own the clones made before clones had owners. */
  boxKeys?: readonly string[];
  log?: (line: Record<string, unknown>) => void;
}): Promise<VoiceWiring | null> {
  const { env, makers } = o;
  const hosted = (id: "elevenlabs" | "cartesia"): ProviderEntry => {
    const make = makers[id];
    const cfg = env[id];
    return {
      id,
      ...LABELS[id],
      boxEngine: make && cfg.apiKey ? make({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey }) : null,
      withKey: make ? (apiKey) => make({ baseUrl: cfg.baseUrl, apiKey }) : undefined,
      requiresEnv: cfg.apiKey ? undefined : id === "elevenlabs" ? "BOX_ELEVENLABS_API_KEY" : "BOX_CARTESIA_API_KEY",
    };
  };
  const chatterboxMaker = makers.chatterbox;
  const providers: ProviderEntry[] = [
    { id: "espeak", ...ESPEAK_INFO, boxEngine: o.espeak },
    {
      id: "chatterbox",
      ...LABELS.chatterbox,
      boxEngine: chatterboxMaker && env.chatterbox ? chatterboxMaker({ baseUrl: env.chatterbox.url, apiKey: env.chatterbox.apiKey }) : null,
      requiresEnv: env.chatterbox ? undefined : "BOX_CHATTERBOX_URL",
    },
    hosted("elevenlabs"),
    hosted("cartesia"),
  ];
  const boot = providers.find((p) => p.id === env.engine)!;
  if (!boot.boxEngine) return null;
  const cipher = env.keyMaterial ? await VoiceKeyCipher.fromKeyMaterial(Buffer.from(env.keyMaterial, "hex")) : null;
  const settings = o.settings;
  const accounts = new VoiceAccounts({
    providers,
    boot: env.engine,
    choices: o.sharedDb ? new SharedVoiceChoices(o.sharedDb) : null,
    cipher,
    ownerOf: ownerOfSubject(o.keyTable),
    slotVoice: settings
      ? async (subject, provider) => {
          const record = (await settings.read(subject)) as unknown as Record<string, unknown>;
          const v = record[voiceSlotField(provider)];
          return typeof v === "string" && v ? v : undefined;
        }
      : undefined,
    retryMs: o.retryMs,
    log: o.log,
    owners: CloneOwners.forBox(o.boxKeys ?? []),
  });
  const ttsProviders = providers
    .filter((p) => p.boxEngine || p.withKey)
    .map((p) => ({ id: p.id, label: p.label, local: p.local, byo: p.byo, clone: p.clone ?? false, prepare: p.prepare ?? false }));
  return { accounts, ttsProviders };
}
