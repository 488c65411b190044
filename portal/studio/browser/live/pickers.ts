// Implements: the live page's avatar, tone, voice engine and voice pickers, from the box's own lists
// (`GET /api/avatars`, `GET /api/voices`), with voice samples fetched with the page's credential.
// The avatar grid (./avatar-cards.ts, keys in ./avatar-grid-keys.ts) also shows the library's rows
// (`GET /auth/avatars`) and the Public library (`GET /auth/avatars/public`); `/studio?avatar=<id>`
// picks that avatar (./picker-memory.ts). A switch of avatar or tone reconnects a call. The voice is
// remembered per avatar (in this browser) and sent as the call's voice; an avatar with none chosen
// speaks with "the face's own voice" (the box's pick: docs/api-notes.md "A voice that fits the face").
import type { AvatarClient, AvatarGroup, LoadedAvatars, VoiceCatalogue, VoiceGroup } from "../../../../shared/client/index.ts";
import type { LibraryRecord, PublicLibraryRecord } from "../../../../shared/wire/library.ts";
import { byId, h } from "../dom.ts";
import { portalJson } from "../portal-api.ts";
import { explain, voiceGroupWords } from "../words.ts";
import { engineName } from "../voice-names.ts";
import { VoicePicker } from "../voice-picker.ts";
import { appendAvatarSections, Stills } from "./avatar-cards.ts";
import { avatarGridKey } from "./avatar-grid-keys.ts";
import type { EventLog } from "./panels.ts";
import { askedAvatar, forgetAsked, type Saved, saved, store } from "./picker-memory.ts";

/** The voice picker's first entry: no voice sent, the box speaks with the one that fits the face. */
const FACE_VOICE = {
  value: "",
  label: "The face's own voice",
  hint: "(the box picks one that fits this avatar, unless you saved a voice of your own)",
};

/** The four lists the pickers show, each asked for at once; each is settled where it is read. */
export interface PickerLists {
  avatars: Promise<LoadedAvatars>;
  voices: Promise<VoiceCatalogue>;
  library: Promise<{ avatars: LibraryRecord[] }>;
  publicRows: Promise<{ avatars: PublicLibraryRecord[] }>;
}

/** Asks for the pickers' lists now (the live page asks first thing, before it builds its panels). */
export function askPickerLists(client: AvatarClient): PickerLists {
  const lists: PickerLists = {
    avatars: client.avatars(),
    voices: client.voices(),
    library: portalJson<{ avatars: LibraryRecord[] }>("GET", "/auth/avatars"),
    publicRows: portalJson<{ avatars: PublicLibraryRecord[] }>("GET", "/auth/avatars/public"),
  };
  for (const p of Object.values(lists)) p.catch(() => {});
  return lists;
}

export class Pickers {
  private avatars: LoadedAvatars | null = null;
  /** The person's library (portal) and the public library; null when they could not be read. */
  private library: LibraryRecord[] | null = null;
  private publicRows: PublicLibraryRecord[] | null = null;
  private catalogue: VoiceCatalogue | null = null;
  private readonly stills: Stills;
  private readonly grid = byId("avatar-picker");
  private readonly toneSelect = byId<HTMLSelectElement>("tone");
  private readonly providerSelect = byId<HTMLSelectElement>("provider");
  private readonly voiceSelect = byId<HTMLSelectElement>("voice");
  private readonly voicePicker = new VoicePicker(this.voiceSelect);
  private readonly previewStatus = byId("preview-status");
  private readonly previewAudio = byId<HTMLAudioElement>("preview-audio");
  private pick: Saved = saved();

  constructor(
    private readonly client: AvatarClient,
    private readonly log: EventLog,
    /** The face changed (avatar or tone): a live call reconnects. */
    private readonly onFace: (face: string) => void,
    /** The catalogue's voice_notice (empty clears it). */
    private readonly onVoiceNotice: (notice: string) => void,
  ) {
    this.stills = new Stills(client);
    this.grid.addEventListener("change", (e) => {
      const input = e.target as HTMLInputElement;
      if (input.name !== "avatar") return;
      this.remember({ avatar: input.value });
      this.fillTones();
      this.restoreVoice();
      this.onFace(this.face());
    });
    // Arrows move the focus only (a radio group would switch, and reconnect, on every press).
    this.grid.addEventListener("keydown", (e) => avatarGridKey(this.grid, e));
    this.toneSelect.addEventListener("change", () => {
      this.remember({ tone: this.toneSelect.value });
      this.onFace(this.face());
    });
    this.providerSelect.addEventListener("change", () => {
      this.remember({ provider: this.providerSelect.value });
      this.rememberVoice("");
      this.fillVoices();
    });
    this.voiceSelect.addEventListener("change", () => this.rememberVoice(this.voiceSelect.value));
    byId("preview-voice").addEventListener("click", () => void this.preview());
  }

  /** Fills the pickers from `lists` (asked for now when not given); the avatars do not wait for the voices. */
  async load(lists: PickerLists = askPickerLists(this.client)): Promise<void> {
    const [avatars, library, publicRows] = await Promise.allSettled([lists.avatars, lists.library, lists.publicRows]);
    if (avatars.status === "rejected") throw avatars.reason;
    this.avatars = avatars.value;
    // The library only labels and adds cards: without it the box's own list still works.
    this.library = library.status === "fulfilled" ? library.value.avatars : null;
    this.publicRows = publicRows.status === "fulfilled" ? publicRows.value.avatars : null;
    this.renderAvatars();
    const [voices] = await Promise.allSettled([lists.voices]);
    if (voices.status === "fulfilled") {
      this.catalogue = voices.value;
      this.renderProviders();
      this.onVoiceNotice(voices.value.voice_notice);
    } else {
      this.previewStatus.textContent = `The voices could not be listed: ${explain(voices.reason).text}`;
    }
  }

  /** The lists could not be read (the box is stopped, say): the pickers say so and wait. */
  unavailable(text: string): void {
    const legend = this.grid.querySelector("legend")!;
    this.grid.replaceChildren(legend, h("p", { class: "hint" }, text));
    for (const s of [this.toneSelect, this.providerSelect]) {
      s.replaceChildren(h("option", { value: "" }, "–"));
      s.disabled = true;
    }
    this.voicePicker.set([], "");
  }

  /** The variant the call shows: the group's id for neutral, `<id>__<tone>` when that variant is loaded. */
  face(): string {
    const group = this.group();
    if (!group) return this.avatars?.active ?? "";
    const tone = this.toneSelect.value;
    const variant = `${group.id}__${tone}`;
    return tone && tone !== "neutral" && this.avatars?.avatars.includes(variant) ? variant : group.id;
  }

  tone(): string | undefined {
    return this.toneSelect.value || undefined;
  }

  /** Voice and engine for chat and the microphone socket; the engine alone for the face's own voice. */
  voice(): { voice?: string; voice_provider?: string } {
    const provider = this.providerSelect.value;
    const voice = this.voiceSelect.value;
    if (!provider) return {};
    return voice ? { voice, voice_provider: provider } : { voice_provider: provider };
  }

  /** Talk speaks through the session's own engine: only a voice of that engine can be named. */
  talkVoice(): string | undefined {
    const v = this.voice();
    return v.voice && v.voice_provider === this.catalogue?.current_provider ? v.voice : undefined;
  }

  private group(): AvatarGroup | undefined {
    const id = this.grid.querySelector<HTMLInputElement>("input[name=avatar]:checked")?.value;
    return this.avatars?.groups.find((g) => g.id === id);
  }

  private rememberVoice(voice: string): void {
    const avatar = this.group()?.id;
    if (!avatar) return;
    const voices = { ...(this.pick.voices ?? {}) };
    if (voice) voices[avatar] = { provider: this.providerSelect.value, voice };
    else delete voices[avatar];
    this.remember({ voices });
  }

  /** A switch of avatar: its remembered voice (and that voice's engine), else the face's own voice. */
  private restoreVoice(): void {
    if (!this.catalogue) return;
    const mine = this.pick.voices?.[this.group()?.id ?? ""];
    if (mine && [...this.providerSelect.options].some((o) => o.value === mine.provider && !o.disabled))
      this.providerSelect.value = mine.provider;
    this.fillVoices();
  }

  private remember(patch: Saved): void {
    this.pick = { ...this.pick, ...patch };
    store(this.pick);
  }

  private renderAvatars(): void {
    const a = this.avatars!;
    const asked = askedAvatar();
    const askedHere = asked !== null && a.groups.some((g) => g.id === asked);
    if (askedHere) {
      this.remember({ avatar: asked, tone: undefined });
      forgetAsked();
      this.log.add(`Avatar ${asked} picked from the Avatars page.`);
    }
    const chosen = a.groups.some((g) => g.id === this.pick.avatar) ? this.pick.avatar : a.active_group;
    const legend = this.grid.querySelector("legend")!;
    this.grid.replaceChildren(legend);
    if (asked !== null && !askedHere) {
      const row = this.library?.find((r) => r.avatar_id === asked);
      const why =
        row?.state === "preparing"
          ? "it is still being prepared (reload this page in a moment)"
          : row?.state === "failed"
            ? "it could not be prepared"
            : "it is not on this box";
      this.grid.append(
        h(
          "p",
          { class: "hint picker-asked", role: "status" },
          `The avatar “${row?.name ?? asked}” cannot be picked: ${why}. Another one is picked meanwhile.`,
        ),
      );
    }
    if (!a.groups.length) this.grid.append(h("p", { class: "hint" }, "The box has no avatars loaded yet."));
    appendAvatarSections(this.grid, { avatars: a, library: this.library, publicRows: this.publicRows }, chosen, this.stills);
    this.fillTones();
  }

  private fillTones(): void {
    const tones = this.group()?.tones ?? [];
    const want = tones.includes(this.pick.tone ?? "") ? this.pick.tone : tones.includes("neutral") ? "neutral" : tones[0];
    this.toneSelect.replaceChildren(...tones.map((t) => h("option", { value: t, selected: t === want }, t)));
    this.toneSelect.disabled = tones.length === 0;
  }

  private renderProviders(): void {
    const c = this.catalogue!;
    const usable = (g: VoiceGroup) => g.state === "ready" && g.voices.length > 0;
    const want =
      [this.pick.provider, c.current_provider, c.groups.find(usable)?.provider].find((p) =>
        c.groups.some((g) => g.provider === p && usable(g)),
      ) ?? c.current_provider;
    this.providerSelect.replaceChildren(
      ...c.groups.map((g) =>
        h(
          "option",
          { value: g.provider, selected: g.provider === want, disabled: !usable(g) },
          `${engineName(g.provider, g.label)}${usable(g) ? "" : " (not available)"}`,
        ),
      ),
    );
    this.providerSelect.disabled = c.groups.length === 0;
    // Why the others cannot be picked, folded away: one line each, in the box's words.
    const down = c.groups.filter((g) => !usable(g));
    byId("provider-note").replaceChildren(
      ...(down.length
        ? [
            h(
              "details",
              {},
              h("summary", {}, `Why ${down.length === 1 ? "one engine is" : `${down.length} engines are`} not available`),
              h("ul", {}, ...down.map((g) => h("li", {}, voiceGroupWords(g.state, g.reason, engineName(g.provider, g.label))))),
            ),
          ]
        : []),
    );
    this.restoreVoice();
  }

  private fillVoices(): void {
    const c = this.catalogue;
    const group = c?.groups.find((g) => g.provider === this.providerSelect.value);
    const voices = group?.voices ?? [];
    const mine = this.pick.voices?.[this.group()?.id ?? ""];
    const want = mine && mine.provider === group?.provider && voices.some((v) => v.id === mine.voice) ? mine.voice : FACE_VOICE.value;
    this.voicePicker.set(voices, want, voices.length ? [FACE_VOICE] : []);
    const session = c?.groups.find((g) => g.provider === c.current_provider);
    byId("voice-scope").textContent =
      c && group && group.provider !== c.current_provider
        ? `Chat and the microphone speak with this engine. Talk speaks with ${session ? engineName(session.provider, session.label) : c.current_provider}, the engine of this session.`
        : "";
  }

  private async preview(): Promise<void> {
    const { voice, voice_provider } = this.voice();
    if (!voice) {
      this.previewStatus.textContent =
        "The face's own voice is picked by the box when it speaks: choose a voice from the list to hear a sample.";
      return;
    }
    const name = this.voicePicker.chosenName;
    this.previewStatus.textContent = `Fetching a sample of ${name}…`;
    try {
      const blob = await this.client.voicePreview({ voice, provider: voice_provider });
      if (this.previewAudio.src) URL.revokeObjectURL(this.previewAudio.src);
      this.previewAudio.src = URL.createObjectURL(blob);
      await this.previewAudio.play();
      this.previewStatus.textContent = `Playing a sample of ${name}.`;
      this.log.add(`Voice sample played: ${name}.`);
    } catch (err) {
      this.previewStatus.textContent = `No sample: ${explain(err).text}`;
    }
  }
}
