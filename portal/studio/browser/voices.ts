// Implements: the Voices page (portal/studio/voices-page.tsx renders its cards): the person's saved
// keys and engine choice from the portal (`/auth/voice/*`), and what the box says about each engine
// now (`GET /api/voices` through the client library, with a portal-minted credential), shown on the
// cards and asked again until the box has picked up a new choice. Its parts: the key forms
// (./voices-keys.ts), the engine choice (./voices-engine-choice.ts), the samples
// (./voices-samples.ts) and "Your voice" (./voices-own-voice.ts). A failure is said next to what
// failed and scrolled into view.
import { AvatarApiError, AvatarClient, portalCredentialProvider } from "../../../shared/client/index.ts";
import type { VoiceSettings } from "../../voice-keys/schema.ts";
import { byId, h, Notices } from "./dom.ts";
import { portalJson, toSignIn } from "./portal-api.ts";
import { explain } from "./words.ts";
import type { VoicesPage } from "./voices-context.ts";
import { wireEngineChoice } from "./voices-engine-choice.ts";
import { BUILT_IN, boxHasChatterbox, type CardState, engineState, HOSTED, type Live } from "./voices-engine-state.ts";
import { wireKeys } from "./voices-keys.ts";
import { OwnVoice } from "./voices-own-voice.ts";
import { wireSamples } from "./voices-samples.ts";
import { engineName as label } from "./voice-names.ts";

/** The box re-reads a person's engine choice at most this often (box/tts/voice-choices.ts). */
const CHOICE_PICKUP_MS = 5_500;
const MAX_PICKUP_CHECKS = 3;

export function startVoices(): void {
  const admin = document.body.dataset.admin === "1";
  const notices = new Notices(byId("voice-notices"));
  const engineSave = byId<HTMLButtonElement>("engine-save");
  const recheck = byId<HTMLButtonElement>("voices-recheck");
  const client = new AvatarClient({ baseUrl: "", token: portalCredentialProvider() });
  const card = (id: string) => byId(`voice-card-${id}`);
  const part = <T extends HTMLElement = HTMLElement>(id: string, role: string) => card(id).querySelector<T>(`[data-role="${role}"]`)!;

  let settings: VoiceSettings | null = null;
  let live: Live = { kind: "checking" };
  let liveSeq = 0;
  let pickupChecks = 0;
  let pickupTimer: ReturnType<typeof setTimeout> | undefined;
  const busy = new Set<string>();
  let settingsReady: Promise<void> = Promise.resolve();

  /** A failure in words; a signed-out person goes to sign in. */
  const words = (err: unknown): string | null => {
    const p = explain(err);
    if (p.kind === "signed_out") {
      toSignIn();
      return null;
    }
    return p.text;
  };

  const keyOf = (id: string) => settings?.keys.find((k) => k.provider === id) ?? null;

  function renderCard(id: string): CardState {
    const s = engineState(id, settings, live);
    const state = part(id, "state");
    state.textContent = s.word;
    state.dataset.state = s.tone;
    part(id, "reason").textContent = s.text;
    const sample = part<HTMLButtonElement>(id, "sample");
    sample.disabled = !s.sample || busy.has(`sample:${id}`);
    sample.title = s.sample ? "" : "No sample while the engine cannot speak for you (see its state).";
    part(id, "chosen").hidden = settings?.engine !== id;
    const hosted = (HOSTED as readonly string[]).includes(id);
    if (hosted && settings) {
      const k = keyOf(id);
      part(id, "key").textContent = k ? `Saved: ${k.masked}${k.validated ? `, accepted by ${label(id)}` : ""}.` : "No key saved.";
      part(id, "key-label").textContent = `${k ? "New" : ""} ${label(id)} API key`.trim();
      part(id, "save").textContent = k ? "Replace key" : "Save key";
      part(id, "remove").hidden = !k;
    }
    return s;
  }

  /** Everything from `settings` and `live`; true when the box has yet to pick up the choice. */
  function render(): boolean {
    const states = new Map<string, CardState>();
    card("chatterbox").hidden = !boxHasChatterbox(live);
    for (const id of [BUILT_IN, "chatterbox", ...HOSTED]) states.set(id, renderCard(id));
    // The engine choice: the portal's engines, each with the portal's note and the box's word.
    for (const e of settings?.engines ?? []) {
      const radio = document.getElementById(`engine-${e.id}`) as HTMLInputElement | null;
      if (!radio) continue;
      radio.checked = settings!.engine === e.id;
      radio.disabled = e.byo && keyOf(e.id) === null;
      const s = states.get(e.id);
      // The box's word where it adds to the portal's note (not "needs your key" twice).
      const boxWord =
        s && live.kind === "ok" && !["Needs your key", "Not in use"].includes(s.word) ? ` On the box now: ${s.word.toLowerCase()}.` : "";
      byId(`engine-note-${e.id}`).textContent = `${e.note}${boxWord}`;
    }
    engineSave.disabled = !settings || busy.has("engine");
    if (live.kind === "ok" && live.c.voice_notice)
      notices.set("voice", "warning", `${live.c.voice_notice} Replace the key in its card below, or choose another engine.`);
    else notices.clear("voice");
    return [...states.values()].some((s) => s.pending);
  }

  async function loadSettings(): Promise<void> {
    try {
      settings = (await portalJson<{ voice: VoiceSettings }>("GET", "/auth/voice/settings")).voice;
      notices.clear("settings");
    } catch (err) {
      const text = words(err);
      if (text !== null)
        notices.set("settings", "error", `Your voice settings could not be read: ${text}`, [
          { label: "Try again", run: () => loadSettings().then(() => void render()) },
        ]);
    }
  }

  /** The box's word on every engine; `refresh` makes it ask the providers again. */
  async function loadLive(refresh: boolean): Promise<void> {
    const seq = ++liveSeq;
    recheck.disabled = true;
    try {
      const [c, envelope] = await Promise.all([client.voices({ refresh }), client.getSettings().catch(() => null)]);
      if (seq !== liveSeq) return;
      const boxHas = envelope ? new Set(envelope.tts_providers.filter((p) => !p.byo).map((p) => p.id)) : null;
      live = { kind: "ok", c, boxHas };
      notices.clear("box");
      ownVoice.render(c, envelope?.settings as Record<string, unknown> | undefined);
    } catch (err) {
      if (seq !== liveSeq) return;
      const p = explain(err);
      if (p.kind === "signed_out") return toSignIn();
      if (p.kind === "box_stopped") {
        live = { kind: "down", why: "The box is not answering, so this is unknown until it runs." };
        const text = (t: string) => document.createTextNode(t);
        const next = admin
          ? [text(" Start it on the "), h("a", { href: "/studio/gpu" }, "GPU page"), text(".")]
          : [text(" Ask an administrator of this portal to start it.")];
        const stopped = err instanceof AvatarApiError && err.code === "box_not_running" ? "The box is stopped." : p.text;
        const said = `${stopped} Your keys and engine choice still save here; whether each engine works now is unknown until the box runs.`;
        notices.set("box", "warning", [text(said), ...next], [{ label: "Check again", run: () => loadLive(true) }]);
      } else {
        live = { kind: "down", why: `The box could not say: ${p.text}` };
        notices.set("box", "error", `The box could not list its voices: ${p.text}`, [{ label: "Check again", run: () => loadLive(true) }]);
      }
    } finally {
      if (seq === liveSeq) recheck.disabled = false;
    }
    await settingsReady;
    if (seq !== liveSeq) return;
    clearTimeout(pickupTimer);
    // A new choice reaches the box within seconds: ask again rather than show a stale state.
    if (render() && pickupChecks < MAX_PICKUP_CHECKS) {
      pickupChecks++;
      pickupTimer = setTimeout(() => void loadLive(false), CHOICE_PICKUP_MS);
    }
  }

  /** After a change: new settings from the portal's answer, then the box asked again. */
  function changed(voice: VoiceSettings): void {
    settings = voice;
    pickupChecks = 0;
    render();
    void loadLive(true);
  }

  const page: VoicesPage = {
    client,
    busy,
    settings: () => settings,
    live: () => live,
    keyOf,
    part,
    words,
    changed,
    render,
    renderCard,
  };
  const ownVoice = new OwnVoice(page);
  wireKeys(page);
  wireEngineChoice(page);
  wireSamples(page);

  recheck.addEventListener("click", () => {
    pickupChecks = 0;
    void loadLive(true);
  });

  // Both asked at once; the box's states are shown once the settings they are read against are in.
  settingsReady = loadSettings();
  void loadLive(false);
}
