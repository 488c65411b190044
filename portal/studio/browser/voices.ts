// The Voices page (portal/studio/voices-page.tsx renders its cards): the person's saved keys and
// engine choice from the portal (`/auth/voice/*`), and what the box says about each engine now
// (`GET /api/voices` through the client library, with a portal-minted credential). A key goes to
// the portal once, in the PUT body; the page shows only its masked hint and clears the input.
// "Your voice" (the settings record's voice slot of the person's engine) uses the studio's voice
// picker. A failure is said next to what failed (the key's form, the engine form, the picker) and
// scrolled into view.
import { AvatarApiError, AvatarClient, portalCredentialProvider, type VoiceCatalogue } from "../../../shared/client/index.ts";
import type { VoiceSettings } from "../../voice-keys/schema.ts";
import { byId, h, Notices, say } from "./dom.ts";
import { portalJson, toSignIn } from "./portal-api.ts";
import { explain, voiceGroupWords } from "./words.ts";
import { engineName } from "./voice-names.ts";
import { VoicePicker } from "./voice-picker.ts";

const BUILT_IN = "espeak";
const HOSTED = ["elevenlabs", "cartesia"] as const;
/** The settings record's voice slot of an engine (the first hosted provider keeps the bare name). */
const slotField = (provider: string) => (provider === "elevenlabs" ? "voice_id" : `voice_id_${provider}`);
/** "Your voice"'s first entry: no voice saved, each face speaks with the one that fits it. */
const FACE_VOICE = { value: "", label: "The face's own voice" };
/** The box re-reads a person's engine choice at most this often (box/tts/accounts.ts). */
const CHOICE_PICKUP_MS = 5_500;
const MAX_PICKUP_CHECKS = 3;

/** The seven catalogue states as a short word and a tone. */
const STATE_WORDS: Record<string, [string, Tone]> = {
  ready: ["Works now", "ok"],
  empty: ["No voices", "warn"],
  starting: ["Starting", "warn"],
  refused: ["Refused", "bad"],
  unreachable: ["Unreachable", "bad"],
  timed_out: ["No answer in time", "bad"],
  key_problem: ["Key problem", "bad"],
};

type Tone = "ok" | "warn" | "bad" | "muted";
export type Live = { kind: "checking" } | { kind: "ok"; c: VoiceCatalogue; boxHas: Set<string> | null } | { kind: "down"; why: string };
export interface CardState {
  word: string;
  tone: Tone;
  text: string;
  sample: boolean;
  /** The box has not picked up the person's choice yet: check again shortly. */
  pending?: boolean;
}

const label = (id: string) => engineName(id);

/** A result next to what it is about; a failure is also brought into view (it may be below the fold). */
function tell(el: HTMLElement, text: string, tone: "ok" | "error" | "" = ""): void {
  say(el, text, tone);
  if (tone === "error") el.scrollIntoView({ block: "nearest" });
}

/**
 * What the box says about one engine, read against the person's settings: the box answers for the
 * account that would speak, so a saved key that is not chosen, or a choice the box has not picked
 * up yet, are said in the page's own words rather than the box's.
 */
export function engineState(id: string, settings: VoiceSettings | null, live: Live): CardState {
  if (live.kind === "checking") return { word: "Checking…", tone: "muted", text: "", sample: false };
  if (live.kind === "down") return { word: "Unknown", tone: "muted", text: live.why, sample: false };
  const c = live.c;
  const g = c.groups.find((x) => x.provider === id);
  if (!g) return { word: "Not on this box", tone: "muted", text: `This box has no ${label(id)} engine.`, sample: false };
  const [word, tone] = STATE_WORDS[g.state] ?? [g.state, "bad"];
  const ready = g.state === "ready";
  const fromBox: CardState = {
    word,
    tone,
    text: ready ? `${g.voices.length} voice${g.voices.length === 1 ? "" : "s"}.` : voiceGroupWords(g.state, g.reason, label(id)),
    sample: ready,
  };
  if (!(HOSTED as readonly string[]).includes(id)) return fromBox;
  const saved = settings?.keys.some((k) => k.provider === id) ?? false;
  const switching: CardState = {
    word: "Switching",
    tone: "warn",
    text: "The box picks up your change within a few seconds.",
    sample: false,
    pending: true,
  };
  if (saved && settings?.engine === id) {
    if (c.current_provider !== id && c.voice_notice) return { word: "Key problem", tone: "bad", text: c.voice_notice, sample: false };
    return c.current_provider === id ? fromBox : switching;
  }
  // Still speaking with a key the person removed or an engine they left: the box has yet to re-read.
  if (c.byo && c.current_provider === id) return switching;
  if (ready)
    return {
      ...fromBox,
      text: `${fromBox.text} With the box's own ${label(id)} account${saved ? `; choose ${label(id)} above to speak with your key` : ""}.`,
    };
  if (saved)
    return {
      word: "Not in use",
      tone: "muted",
      text: `Your key is saved. Choose ${label(id)} above and the box speaks with it.`,
      sample: false,
    };
  return { word: "Needs your key", tone: "muted", text: `Save your ${label(id)} API key below to use it.`, sample: false };
}

/** Chatterbox gets a card only on a box that has it (its engine, not merely its group). */
export function boxHasChatterbox(live: Live): boolean {
  if (live.kind !== "ok") return false;
  if (live.boxHas) return live.boxHas.has("chatterbox");
  const g = live.c.groups.find((x) => x.provider === "chatterbox");
  return live.c.current_provider === "chatterbox" || (g !== undefined && g.state !== "refused");
}

export function startVoices(): void {
  const admin = document.body.dataset.admin === "1";
  const notices = new Notices(byId("voice-notices"));
  const engineForm = byId<HTMLFormElement>("engine-form");
  const engineSave = byId<HTMLButtonElement>("engine-save");
  const engineResult = byId("engine-result");
  const dialog = byId<HTMLDialogElement>("remove-key-dialog");
  const recheck = byId<HTMLButtonElement>("voices-recheck");
  const client = new AvatarClient({ baseUrl: "", token: portalCredentialProvider() });
  const card = (id: string) => byId(`voice-card-${id}`);
  const ownSelect = byId<HTMLSelectElement>("own-voice");
  const ownPicker = new VoicePicker(ownSelect);
  const ownResult = byId("own-voice-result");
  /** The engine "Your voice" lists, and the value saved in its slot. */
  let own: { provider: string; saved: string } | null = null;
  const part = <T extends HTMLElement = HTMLElement>(id: string, role: string) => card(id).querySelector<T>(`[data-role="${role}"]`)!;

  let settings: VoiceSettings | null = null;
  let live: Live = { kind: "checking" };
  let liveSeq = 0;
  let pickupChecks = 0;
  let pickupTimer: ReturnType<typeof setTimeout> | undefined;
  let removing: string | null = null;
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
      renderOwnVoice(c, envelope?.settings as Record<string, unknown> | undefined);
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

  /** "Your voice": the voices of the engine that speaks for the person now, and their saved one. */
  function renderOwnVoice(c: VoiceCatalogue, record: Record<string, unknown> | undefined): void {
    const provider = c.current_provider;
    const group = c.groups.find((g) => g.provider === provider);
    byId("own-voice-engine").textContent = label(provider);
    if (!record || !group || group.state !== "ready") {
      own = null;
      ownPicker.set([], "");
      say(
        ownResult,
        record ? `${label(provider)} cannot list its voices now (see its card below).` : "Your saved voice could not be read from the box.",
      );
      return;
    }
    const slot = record[slotField(provider)];
    const saved = typeof slot === "string" && group.voices.some((v) => v.id === slot) ? slot : "";
    own = { provider, saved };
    ownPicker.set(group.voices, saved, [FACE_VOICE]);
  }

  ownSelect.addEventListener("change", async () => {
    if (!own) return;
    const { provider } = own;
    const voice = ownSelect.value;
    const name = ownPicker.chosenName;
    say(ownResult, `Saving ${name}…`);
    try {
      await client.saveSettings({ [slotField(provider)]: voice || null } as Parameters<typeof client.saveSettings>[0]);
      own = { provider, saved: voice };
      say(
        ownResult,
        voice
          ? `${name} now speaks in your sessions with ${label(provider)}.`
          : `Each avatar now speaks with the ${label(provider)} voice that fits its face.`,
        "ok",
      );
    } catch (err) {
      const text = words(err);
      if (text !== null) tell(ownResult, `Your voice was not saved: ${text}`, "error");
      ownPicker.set(c0()?.groups.find((g) => g.provider === provider)?.voices ?? [], own.saved, [FACE_VOICE]);
    }
  });
  const c0 = () => (live.kind === "ok" ? live.c : null);

  /** After a change: new settings from the portal's answer, then the box asked again. */
  function changed(voice: VoiceSettings): void {
    settings = voice;
    pickupChecks = 0;
    render();
    void loadLive(true);
  }

  // ---- keys ------------------------------------------------------------------------------------
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
        changed(voice);
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
      const k = keyOf(id);
      if (!k) return;
      removing = id;
      dialog.querySelector(".remove-label")!.textContent = label(id);
      dialog.querySelector(".remove-masked")!.textContent = k.masked;
      dialog.querySelector(".remove-fallback")!.textContent =
        settings?.engine === id ? `${label(id)} is the engine of your sessions: they speak with ${label(BUILT_IN)} instead.` : "";
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
    return words(err);
  }

  dialog.addEventListener("close", async () => {
    const id = removing;
    removing = null;
    if (dialog.returnValue !== "remove" || !id || busy.has(`key:${id}`)) return;
    const result = part(id, "result");
    const button = part<HTMLButtonElement>(id, "remove");
    const before = settings?.engine;
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
      changed(voice);
      part<HTMLInputElement>(id, "key-form").querySelector("input")!.focus();
    } catch (err) {
      const text = words(err);
      if (text !== null) tell(result, `The key was not removed: ${text}`, "error");
    } finally {
      busy.delete(`key:${id}`);
      button.disabled = false;
    }
  });

  // ---- engine choice ---------------------------------------------------------------------------
  engineForm.addEventListener("submit", async (e) => {
    e.preventDefault();
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
      changed(voice);
    } catch (err) {
      busy.delete("engine");
      const text = words(err);
      if (text !== null) tell(engineResult, `The engine was not changed: ${text}`, "error");
      render();
    }
  });

  // ---- samples ---------------------------------------------------------------------------------
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
        const blob = await client.voicePreview({ provider: id });
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
        const text = err instanceof AvatarApiError && err.code === "voice_provider_unavailable" ? err.message : words(err);
        if (text !== null) tell(result, `No sample: ${text}`, "error");
      } finally {
        busy.delete(`sample:${id}`);
        renderCard(id);
      }
    });
  }

  recheck.addEventListener("click", () => {
    pickupChecks = 0;
    void loadLive(true);
  });

  // Both asked at once; the box's states are shown once the settings they are read against are in.
  settingsReady = loadSettings();
  void loadLive(false);
}
