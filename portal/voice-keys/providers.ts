// Implements: Voice settings: the engine catalogue (the built-in engine and the two hosted
// providers) and where each provider's key check goes by default (docs/providers.md 1, 2).
import { BUILT_IN_ENGINE, type HostedProvider } from "./schema.ts";

export const DEFAULT_ELEVENLABS_BASE_URL = "https://api.elevenlabs.io";
export const DEFAULT_CARTESIA_BASE_URL = "https://api.cartesia.ai";

export const PROVIDER_LABELS: Readonly<Record<HostedProvider, string>> = {
  elevenlabs: "ElevenLabs",
  cartesia: "Cartesia",
};

export const BUILT_IN_LABEL = "espeak-ng (built in)";

export const engineLabel = (id: string): string =>
  id === BUILT_IN_ENGINE ? BUILT_IN_LABEL : (PROVIDER_LABELS[id as HostedProvider] ?? id);
