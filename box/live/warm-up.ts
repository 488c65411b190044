// Implements: warm connections at /connect (docs/api-notes.md "Warm connections"): the moment a person opens
// a live session, the box opens connections to the model and the voice that person's turns will
// use, so the first turn does not pay connection set-up. Never fails the connect.
import type { ModelRouter } from "../chat/model-router.ts";
import type { SettingsService } from "../settings/service.ts";
import type { VoiceAccounts } from "../tts/accounts.ts";

export interface WarmUpDeps {
  settings: SettingsService;
  router: ModelRouter;
  accounts: VoiceAccounts | null;
}

export function providerWarmUp(d: WarmUpDeps): (subject: string) => Promise<void> {
  return async (subject) => {
    const model = async () => {
      const s = await d.settings.read(subject);
      await d.router.providerFor(s.live_model || s.model)?.warm?.();
    };
    const voice = async () => {
      if (!d.accounts) return;
      const route = await d.accounts.route({ subject });
      await route.engine.warm?.();
    };
    await Promise.all([model().catch(() => undefined), voice().catch(() => undefined)]);
  };
}
