// Implements: the Voices page's engine choice form: the chosen engine goes to the portal
// (`PUT /auth/voice/engine`), and the page says which engine now speaks in the person's sessions.
import type { VoiceSettings } from "../../voice-keys/schema.ts";
import { byId, say } from "./dom.ts";
import { portalJson } from "./portal-api.ts";
import { engineName as label } from "./voice-names.ts";
import { tell, type VoicesPage } from "./voices-context.ts";

export function wireEngineChoice(page: VoicesPage): void {
  const { busy } = page;
  const engineForm = byId<HTMLFormElement>("engine-form");
  const engineSave = byId<HTMLButtonElement>("engine-save");
  const engineResult = byId("engine-result");
  engineForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const settings = page.settings();
    if (busy.has("engine") || !settings) return;
    const engine = engineForm.querySelector<HTMLInputElement>("input[name=engine]:checked")?.value;
    if (!engine) {
      tell(engineResult, "Pick an engine first.", "error");
      return;
    }
    if (engine === settings.engine) {
      say(engineResult, `${label(engine)} already speaks in your sessions.`, "ok");
      return;
    }
    busy.add("engine");
    engineSave.disabled = true;
    say(engineResult, `Switching to ${label(engine)}…`);
    try {
      const { voice } = await portalJson<{ voice: VoiceSettings }>("PUT", "/auth/voice/engine", { engine });
      say(engineResult, `${label(engine)} now speaks in your sessions.`, "ok");
      busy.delete("engine");
      page.changed(voice);
    } catch (err) {
      busy.delete("engine");
      const text = page.words(err);
      if (text !== null) tell(engineResult, `The engine was not changed: ${text}`, "error");
      page.render();
    }
  });
}
