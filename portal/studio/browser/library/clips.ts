// The tones of one ready avatar and their idle clips (`GET /api/avatar/clips`): made, being made,
// failed (with the box's sentence and a Retry), or not asked for yet (Make a clip); a made clip
// plays here (`GET /api/avatar/clip`, a blob: URL in a <video>). Read when the panel is opened.
// The tones ticked at upload are asked for here without another press (`POST /api/avatar/clips/retry`
// per tone). A clip being made shows the time so far and how long the last one took on this browser.
import { AvatarApiError, type AvatarClient, type ClipRow } from "../../../../shared/client/index.ts";
import { h } from "../dom.ts";
import { elapsed } from "../words.ts";
import { clipRefusal } from "./words.ts";

/** How long the last clip took from asking to made, as measured on this browser (seconds). */
const LAST_BUILD_KEY = "studio.lastClipBuildSeconds";

function lastBuildSeconds(): number | null {
  try {
    const n = Number(localStorage.getItem(LAST_BUILD_KEY));
    return Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

function rememberBuild(seconds: number): void {
  try {
    localStorage.setItem(LAST_BUILD_KEY, String(Math.round(seconds)));
  } catch {
    // Storage refused (private mode): the next clip shows no estimate, nothing else changes.
  }
}

interface ToneRow {
  li: HTMLLIElement;
  state: HTMLElement;
  button: HTMLButtonElement;
}

const hidden = (text: string) => h("span", { class: "visually-hidden" }, text);

export class ClipPanel {
  readonly el: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly video: HTMLVideoElement;
  private readonly status: HTMLElement;
  private readonly rows = new Map<string, ToneRow>();
  private clips = new Map<string, ClipRow>();
  private tones: string[] = [];
  private loaded = false;
  private videoUrl: string | null = null;
  /** When each clip being made was asked for (browser clock, ms), so the time so far is measured here. */
  private readonly askedAt = new Map<string, number>();

  constructor(
    private readonly client: AvatarClient,
    private readonly avatarId: string,
    /** A clip started being made: the page polls until it is done. */
    private readonly onMoving: () => void,
  ) {
    this.summary = h("summary", {}, "Tones and clips");
    this.list = h("ul", { class: "clip-list" });
    this.video = h("video", { class: "clip-video", controls: true, playsinline: true, muted: true, loop: true, hidden: true });
    this.status = h("p", { class: "result", role: "status" });
    this.el = h(
      "details",
      { class: "clips" },
      this.summary,
      h(
        "p",
        { class: "hint" },
        "A clip is a short idle video of the face at rest in one tone, made on the box. While one is made, the time so far shows here.",
      ),
      this.list,
      this.status,
      this.video,
    );
    this.el.addEventListener("toggle", () => {
      if (this.el.open && !this.loaded) void this.refresh();
    });
  }

  /** Some clip is being made (the page keeps polling). */
  get moving(): boolean {
    return [...this.clips.values()].some((c) => c.state === "generating");
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  setTones(tones: string[]): void {
    if (tones.join() === this.tones.join()) return;
    this.tones = tones;
    this.rows.clear();
    this.list.replaceChildren(...tones.map((t) => this.toneRow(t).li));
    this.render();
  }

  /** Reads the clip states again. */
  async refresh(): Promise<void> {
    try {
      // `not_requested` is the same as no row: nothing asked yet.
      const clips = (await this.client.avatarClips(this.avatarId)).clips.filter((c) => c.state !== "not_requested");
      for (const c of clips) {
        const asked = this.askedAt.get(c.tone);
        if (asked === undefined || c.state === "generating") continue;
        if (c.state === "generated") rememberBuild((Date.now() - asked) / 1000);
        this.askedAt.delete(c.tone);
      }
      this.clips = new Map(clips.map((c) => [c.tone, c]));
      this.loaded = true;
      this.render();
    } catch (err) {
      this.status.className = "result error";
      this.status.textContent = `The clips could not be read: ${clipRefusal(err)}`;
    }
  }

  /**
   * Asks for the clip of each of `tones` (null: every tone of the avatar) that has none yet, one
   * after another, and opens the panel so the progress shows. Stops at the first refusal that
   * would refuse every tone (clips off, no consent, no generator) and says it.
   */
  async build(tones: string[] | null): Promise<void> {
    await this.refresh();
    if (!this.loaded) return;
    const wanted = (tones ?? this.tones).filter((t) => this.tones.includes(t) && !this.clips.has(t));
    if (!wanted.length) return;
    this.el.open = true;
    for (const tone of wanted) {
      try {
        await this.ask(tone);
      } catch (err) {
        if (err instanceof AvatarApiError && err.code === "clip_already_generating") continue;
        this.status.className = "result error";
        this.status.textContent = clipRefusal(err);
        return;
      }
    }
    this.status.className = "result";
    this.status.textContent = `Making the clips of ${wanted.length === 1 ? "the tone" : `${wanted.length} tones`} you ticked: ${wanted.join(", ")}.`;
  }

  /** `POST /api/avatar/clips/retry` for one tone; the row shows it being made. */
  private async ask(tone: string): Promise<void> {
    const answer = await this.client.retryClip({ avatar: this.avatarId, tone });
    this.askedAt.set(tone, Date.now());
    this.clips.set(tone, {
      tone,
      state: answer.state,
      variant_id: answer.variant_id,
      duration_s: 0,
      updated_at: Math.floor(Date.now() / 1000),
      detail: "",
    });
    this.render();
    this.onMoving();
  }

  private toneRow(tone: string): ToneRow {
    const state = h("span", { class: "clip-state" });
    const button = h("button", { type: "button", class: "quiet" });
    button.addEventListener("click", () => void this.act(tone, button));
    const li = h("li", { "data-tone": tone }, h("span", { class: "tone-name" }, tone), state, button);
    const row = { li, state, button };
    this.rows.set(tone, row);
    return row;
  }

  private render(): void {
    const made = [...this.clips.values()].filter((c) => c.state === "generated").length;
    this.summary.textContent = `Tones and clips: ${this.tones.length} ${this.tones.length === 1 ? "tone" : "tones"}${this.loaded ? `, ${made} ${made === 1 ? "clip" : "clips"} made` : ""}`;
    for (const [tone, row] of this.rows) {
      const c = this.clips.get(tone);
      row.li.dataset.state = c?.state ?? "none";
      const label = (verb: string) => [verb, hidden(` of the ${tone} tone`)];
      if (!this.loaded) {
        row.state.textContent = "…";
        row.button.hidden = true;
      } else if (!c) {
        row.state.textContent = "No clip yet.";
        row.button.replaceChildren(...label("Make a clip"));
        row.button.hidden = false;
      } else if (c.state === "generating") {
        const since = this.askedAt.get(tone) ?? c.updated_at * 1000;
        const last = lastBuildSeconds();
        row.state.textContent = `Being made… ${elapsed((Date.now() - since) / 1000)} so far${last ? ` (the last clip took ${elapsed(last)})` : ""}.`;
        row.button.hidden = true;
      } else if (c.state === "generated") {
        row.state.textContent = `Made (${c.duration_s.toFixed(1)} s).`;
        row.button.replaceChildren(...label("Play"));
        row.button.hidden = false;
      } else {
        row.state.textContent = `Failed: ${c.detail || "the box gave no reason."}`;
        row.button.replaceChildren(...label("Retry"));
        row.button.hidden = false;
      }
    }
  }

  private async act(tone: string, button: HTMLButtonElement): Promise<void> {
    const c = this.clips.get(tone);
    const hadFocus = document.activeElement === button;
    button.disabled = true;
    this.status.textContent = "";
    try {
      if (c?.state === "generated") {
        const blob = await this.client.avatarClip({ avatar: this.avatarId, tone });
        if (this.videoUrl) URL.revokeObjectURL(this.videoUrl);
        this.videoUrl = URL.createObjectURL(blob);
        this.video.src = this.videoUrl;
        this.video.setAttribute("aria-label", `Clip of the ${tone} tone`);
        this.video.hidden = false;
        await this.video.play().catch(() => undefined);
        this.status.className = "result ok";
        this.status.textContent = `Playing the ${tone} clip.`;
      } else {
        await this.ask(tone);
        // The pressed button goes away while the clip is made: focus stays in the panel.
        if (hadFocus) this.summary.focus();
      }
    } catch (err) {
      this.status.className = "result error";
      this.status.textContent = clipRefusal(err);
    } finally {
      button.disabled = false;
    }
  }

  dispose(): void {
    if (this.videoUrl) URL.revokeObjectURL(this.videoUrl);
  }
}
