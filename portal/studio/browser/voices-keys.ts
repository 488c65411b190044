// Implements: the Voices page's key forms and the remove-key dialog. A key goes to the portal once,
// in the PUT body (`/auth/voice/key`), which checks it with the provider; the page then shows only
// its masked hint and clears the input. Removing asks first, and says which engine speaks instead.
import { AvatarApiError } from "../../../shared/client/index.ts";
import type { VoiceSettings } from "../../voice-keys/schema.ts";
import { byId, say } from "./dom.ts";
import { portalJson } from "./portal-api.ts";
import { engineName as label } from "./voice-names.ts";
import { tell, type VoicesPage } from "./voices-context.ts";
import { BUILT_IN, HOSTED } from "./voices-engine-state.ts";

export function wireKeys(page: VoicesPage): void {
  const { busy, part } = page;
  const dialog = byId<HTMLDialogElement>("remove-key-dialog");
  const engineResult = byId("engine-result");
  let removing: string | null = null;

  for (const id of HOSTED) {
    const form = part<HTMLFormElement>(id, "key-form");
    const input = form.querySelector<HTMLInputElement>("input[name=key]")!;
    const save = part<HTMLButtonElement>(id, "save");
    const result = part(id, "key-result");
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (busy.has(`key:${id}`)) return;
      const key = input.value.trim();
      if (!key) {
        tell(result, `Paste your ${label(id)} API key first (from ${label(id)}'s dashboard).`, "error");
        input.focus();
        return;
      }
      busy.add(`key:${id}`);
      save.disabled = true;
      say(result, `Checking the key with ${label(id)}…`);
      try {
        const { voice } = await portalJson<{ voice: VoiceSettings }>("PUT", "/auth/voice/key", { provider: id, key });
        input.value = "";
        const k = voice.keys.find((x) => x.provider === id);
        const next = voice.engine === id ? " The box speaks with it in your sessions." : ` Choose ${label(id)} above to speak with it.`;
        say(result, `Accepted: ${label(id)} accepted the key and it is saved as ${k?.masked ?? "a hidden key"}.${next}`, "ok");
        page.changed(voice);
      } catch (err) {
        const text = keyWords(err, id);
        if (text !== null) tell(result, text, "error");
        input.focus();
      } finally {
        busy.delete(`key:${id}`);
        save.disabled = false;
      }
    });

    part(id, "remove").addEventListener("click", () => {
      const k = page.keyOf(id);
      if (!k) return;
      removing = id;
      dialog.querySelector(".remove-label")!.textContent = label(id);
      dialog.querySelector(".remove-masked")!.textContent = k.masked;
      dialog.querySelector(".remove-fallback")!.textContent =
        page.settings()?.engine === id ? `${label(id)} is the engine of your sessions: they speak with ${label(BUILT_IN)} instead.` : "";
      dialog.returnValue = "";
      dialog.showModal();
    });
  }

  /** The key check's answer in words: accepted, rejected by the provider, provider unreachable. */
  function keyWords(err: unknown, id: string): string | null {
    if (err instanceof AvatarApiError) {
      if (err.code === "voice_key_rejected") return `Rejected by the provider: ${err.message}`;
      if (err.code === "voice_key_check_failed") return `Provider unreachable: ${err.message}`;
      if (err.code === "invalid_voice_key") return `Not sent to ${label(id)}: ${err.message}`;
    }
    return page.words(err);
  }

  dialog.addEventListener("close", async () => {
    const id = removing;
    removing = null;
    if (dialog.returnValue !== "remove" || !id || busy.has(`key:${id}`)) return;
    const result = part(id, "result");
    const button = part<HTMLButtonElement>(id, "remove");
    const before = page.settings()?.engine;
    busy.add(`key:${id}`);
    button.disabled = true;
    try {
      const { voice } = await portalJson<{ voice: VoiceSettings }>("DELETE", `/auth/voice/key/${encodeURIComponent(id)}`);
      say(result, `Your ${label(id)} key was removed from the portal.`, "ok");
      if (before === id && voice.engine !== id) {
        say(
          engineResult,
          `${label(id)} was the engine of your sessions; without its key they now speak with ${label(voice.engine)}.`,
          "ok",
        );
      }
      page.changed(voice);
      part<HTMLInputElement>(id, "key-form").querySelector("input")!.focus();
    } catch (err) {
      const text = page.words(err);
      if (text !== null) tell(result, `The key was not removed: ${text}`, "error");
    } finally {
      busy.delete(`key:${id}`);
      button.disabled = false;
    }
  });
}
