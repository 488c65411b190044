// Implements: "Your voice" on the Voices page: the voices of the engine that speaks for the person
// now (the studio's voice picker), with the one saved in that engine's voice slot of the settings
// record; a change is saved to the box (`POST /api/settings`) and said next to the picker.
import type { VoiceCatalogue } from "../../../shared/client/index.ts";
import { byId, say } from "./dom.ts";
import { engineName as label } from "./voice-names.ts";
import { VoicePicker } from "./voice-picker.ts";
import { tell, type VoicesPage } from "./voices-context.ts";

/** The settings record's voice slot of an engine (the first hosted provider keeps the bare name). */
const slotField = (provider: string) => (provider === "elevenlabs" ? "voice_id" : `voice_id_${provider}`);
/** "Your voice"'s first entry: no voice saved, each face speaks with the one that fits it. */
const FACE_VOICE = { value: "", label: "The face's own voice" };

export class OwnVoice {
  /** The engine "Your voice" lists, and the value saved in its slot. */
  private own: { provider: string; saved: string } | null = null;
  private readonly select = byId<HTMLSelectElement>("own-voice");
  private readonly picker = new VoicePicker(this.select);
  private readonly result = byId("own-voice-result");

  constructor(private readonly page: VoicesPage) {
    this.select.addEventListener("change", () => void this.save());
  }

  /** The voices of the engine that speaks for the person now, and their saved one. */
  render(c: VoiceCatalogue, record: Record<string, unknown> | undefined): void {
    const provider = c.current_provider;
    const group = c.groups.find((g) => g.provider === provider);
    byId("own-voice-engine").textContent = label(provider);
    if (!record || !group || group.state !== "ready") {
      this.own = null;
      this.picker.set([], "");
      say(
        this.result,
        record ? `${label(provider)} cannot list its voices now (see its card below).` : "Your saved voice could not be read from the box.",
      );
      return;
    }
    const slot = record[slotField(provider)];
    const saved = typeof slot === "string" && group.voices.some((v) => v.id === slot) ? slot : "";
    this.own = { provider, saved };
    this.picker.set(group.voices, saved, [FACE_VOICE]);
  }

  private async save(): Promise<void> {
    if (!this.own) return;
    const { provider } = this.own;
    const client = this.page.client;
    const voice = this.select.value;
    const name = this.picker.chosenName;
    say(this.result, `Saving ${name}…`);
    try {
      await client.saveSettings({ [slotField(provider)]: voice || null } as Parameters<typeof client.saveSettings>[0]);
      this.own = { provider, saved: voice };
      say(
        this.result,
        voice
          ? `${name} now speaks in your sessions with ${label(provider)}.`
          : `Each avatar now speaks with the ${label(provider)} voice that fits its face.`,
        "ok",
      );
    } catch (err) {
      const text = this.page.words(err);
      if (text !== null) tell(this.result, `Your voice was not saved: ${text}`, "error");
      const live = this.page.live();
      const c = live.kind === "ok" ? live.c : null;
      this.picker.set(c?.groups.find((g) => g.provider === provider)?.voices ?? [], this.own.saved, [FACE_VOICE]);
    }
  }
}
