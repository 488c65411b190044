// Implements: the engine choice behind "WebSocket refusals" (voice socket): no engine → 4001
// (engine null); an engine that then fails to start throws UpstreamError 503 → 4005.
// The box's env.ts maps BOX_ASR, BOX_DEEPGRAM_URL and BOX_DEEPGRAM_API_KEY onto these options.
import type { AsrEngine } from "./asr.ts";
import { DEEPGRAM_DEFAULT_URL, DeepgramEngine, type DeepgramOptions } from "./deepgram.ts";
import { isInstalled, missingFiles, PocketsphinxEngine, type PocketsphinxOptions } from "./pocketsphinx.ts";

export type AsrChoice = "pocketsphinx" | "deepgram" | "none" | "auto";

export interface CreateAsrOptions {
  /** "auto": pocketsphinx when installed, else none. */
  engine: AsrChoice;
  /** Required for "deepgram"; `url` defaults to Deepgram's own. */
  deepgram?: Omit<DeepgramOptions, "url"> & { url?: string };
  pocketsphinx?: PocketsphinxOptions;
}

export interface AsrSelection {
  engine: AsrEngine | null;
  /** Why this engine (or none): for the start-up log and the 4001 refusal. */
  reason: string;
}

export function createAsr(options: CreateAsrOptions): AsrSelection {
  switch (options.engine) {
    case "none":
      return { engine: null, reason: "speech recognition is turned off" };
    case "deepgram": {
      const dg = options.deepgram;
      // Deepgram itself needs a key; a self-hosted server speaking its protocol may need none.
      if (!dg?.apiKey && !dg?.url)
        return {
          engine: null,
          reason: "deepgram was chosen without an API key (BOX_DEEPGRAM_API_KEY) or a self-hosted server (BOX_DEEPGRAM_URL)",
        };
      const url = dg.url || DEEPGRAM_DEFAULT_URL;
      return { engine: new DeepgramEngine({ ...dg, url }), reason: `deepgram protocol at ${url}${dg.apiKey ? "" : " (no key)"}` };
    }
    case "pocketsphinx": {
      // Chosen explicitly: a missing install is an engine that will not start (4005), not "none".
      const missing = missingFiles(options.pocketsphinx);
      const engine = new PocketsphinxEngine(options.pocketsphinx);
      return { engine, reason: missing.length ? `pocketsphinx chosen but not installed (missing ${missing.join(", ")})` : "pocketsphinx" };
    }
    case "auto":
      return isInstalled(options.pocketsphinx)
        ? { engine: new PocketsphinxEngine(options.pocketsphinx), reason: "pocketsphinx (installed; the default)" }
        : { engine: null, reason: "no engine chosen and pocketsphinx is not installed" };
    default:
      return { engine: null, reason: `unknown engine "${String(options.engine)}"` };
  }
}
