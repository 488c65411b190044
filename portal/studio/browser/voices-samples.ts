// Implements: the Voices page's sample buttons: a short sample of each engine from the box
// (`GET /api/voice/preview` through the client library), played in the card's own player.
import { AvatarApiError } from "../../../shared/client/index.ts";
import { say } from "./dom.ts";
import { engineName as label } from "./voice-names.ts";
import { tell, type VoicesPage } from "./voices-context.ts";
import { BUILT_IN, HOSTED } from "./voices-engine-state.ts";

export function wireSamples(page: VoicesPage): void {
  const { busy, part } = page;
  for (const id of [BUILT_IN, "chatterbox", ...HOSTED]) {
    const button = part<HTMLButtonElement>(id, "sample");
    const audio = part<HTMLAudioElement>(id, "audio");
    const result = part(id, "result");
    button.addEventListener("click", async () => {
      if (busy.has(`sample:${id}`)) return;
      busy.add(`sample:${id}`);
      button.disabled = true;
      say(result, `Fetching a sample of ${label(id)}…`);
      try {
        const blob = await page.client.voicePreview({ provider: id });
        if (audio.src) URL.revokeObjectURL(audio.src);
        audio.src = URL.createObjectURL(blob);
        audio.hidden = false;
        try {
          await audio.play();
          say(result, `Playing a sample of ${label(id)}.`, "ok");
        } catch {
          say(result, `The sample of ${label(id)} is ready: press play on the player.`, "ok");
        }
      } catch (err) {
        const text = err instanceof AvatarApiError && err.code === "voice_provider_unavailable" ? err.message : page.words(err);
        if (text !== null) tell(result, `No sample: ${text}`, "error");
      } finally {
        busy.delete(`sample:${id}`);
        page.renderCard(id);
      }
    });
  }
}
