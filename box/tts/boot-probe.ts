// Implements: Readiness `tts` / `tts_state` and the catalogue's `engine_ready` for the engine the box
// boots on (BOX_TTS): the cheapest call that proves it can speak, run at start and then on the model
// providers' backoff while it is down (readiness/upstream-health.ts), so a box whose engine is not
// there never reports it ready.
import { ChatterboxEngine } from "./chatterbox/chatterbox-engine.ts";
import { VoiceProviderError, type VoiceEngine } from "./engine.ts";

/** Resolves when `engine` can speak now; throws a provider error whose message is one sentence. */
export function bootProbe(engine: VoiceEngine): () => Promise<void> {
  if (engine instanceof ChatterboxEngine) {
    // The server's own readiness route (GET /api/model-info): no synthesis on the GPU for a check.
    return async () => {
      const info = await engine.modelInfo();
      if (!info.loaded) throw new VoiceProviderError("Chatterbox answers but has not loaded its model yet.", 503, true, "refused");
    };
  }
  // A hosted engine on the box's own key: its key check (no characters billed).
  const keyed = engine as VoiceEngine & { checkKey?: () => Promise<unknown> };
  if (typeof keyed.checkKey === "function") return async () => void (await keyed.checkKey!());
  // The embedded engine: a word said is the only proof.
  return async () => void (await engine.synthesize("ready"));
}
