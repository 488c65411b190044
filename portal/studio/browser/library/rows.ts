// One avatar of the person's, as a list item built once and updated in place on every poll (so
// focus, an open clip panel and a playing clip survive): its still, state in words, source,
// visibility, tones and clips, and the actions (use live, publish or make private, erase).
import type { AvatarClient } from "../../../../shared/client/index.ts";
import { h } from "../dom.ts";
import { ClipPanel } from "./clips.ts";
import { addedWords, sourceWords, stateWords, type AvatarView } from "./model.ts";

export interface RowActions {
  publish: (row: AvatarRow) => void;
  unpublish: (row: AvatarRow) => void;
  erase: (row: AvatarRow) => void;
  /** A clip started being made (keep polling). */
  moving: () => void;
}

const STATE_BADGE: Record<AvatarView["state"], [string, string]> = {
  preparing: ["Preparing", "badge"],
  ready: ["Ready", "badge own"],
  failed: ["Failed", "badge failed"],
};

const hidden = (text: string) => h("span", { class: "visually-hidden" }, text);

export class AvatarRow {
  readonly li: HTMLLIElement;
  view: AvatarView;
  private readonly img: HTMLImageElement;
  private readonly noStill: HTMLElement;
  private readonly stateBadge: HTMLElement;
  private readonly visBadge: HTMLElement;
  private readonly facts: HTMLElement;
  private readonly stateText: HTMLElement;
  private readonly useLive: HTMLAnchorElement;
  private readonly publishBtn: HTMLButtonElement;
  private readonly unpublishBtn: HTMLButtonElement;
  private readonly eraseBtn: HTMLButtonElement;
  readonly result: HTMLElement;
  private clips: ClipPanel | null = null;
  private stillUrl: string | null = null;
  private stillAsked = false;

  constructor(
    view: AvatarView,
    private readonly client: AvatarClient,
    private readonly actions: RowActions,
  ) {
    this.view = view;
    this.img = h("img", { alt: "", width: 112, height: 112, hidden: true });
    this.noStill = h("span", { class: "no-still", "aria-hidden": "true" });
    this.stateBadge = h("span", { class: "badge" });
    this.visBadge = h("span", { class: "badge muted" });
    this.facts = h("span", { class: "hint" });
    this.stateText = h("p", { class: "avatar-state" });
    this.useLive = h("a", { class: "button primary use-live", href: `/studio?avatar=${encodeURIComponent(view.id)}` });
    this.publishBtn = h("button", { type: "button", class: "publish" });
    this.unpublishBtn = h("button", { type: "button", class: "unpublish" });
    this.eraseBtn = h("button", { type: "button", class: "danger-outline erase" });
    this.result = h("p", { class: "result", role: "status" });
    this.publishBtn.addEventListener("click", () => actions.publish(this));
    this.unpublishBtn.addEventListener("click", () => actions.unpublish(this));
    this.eraseBtn.addEventListener("click", () => actions.erase(this));
    const name = h("h3", { class: "avatar-name" });
    this.li = h(
      "li",
      { class: "avatar-item", "data-avatar-id": view.id },
      h("div", { class: "avatar-still" }, this.img, this.noStill),
      h(
        "div",
        { class: "avatar-main" },
        name,
        h("p", { class: "avatar-badges" }, this.stateBadge, " ", this.visBadge, " ", this.facts),
        this.stateText,
        h("div", { class: "avatar-actions" }, this.useLive, this.publishBtn, this.unpublishBtn, this.eraseBtn),
        this.result,
      ),
    );
    this.update(view);
  }

  get name(): string {
    return this.view.name;
  }

  update(v: AvatarView): void {
    this.view = v;
    const li = this.li;
    li.dataset.state = v.state;
    li.dataset.visibility = v.visibility ?? "unknown";
    li.querySelector(".avatar-name")!.textContent = v.name;
    const [badge, cls] = STATE_BADGE[v.state];
    this.stateBadge.textContent = badge;
    this.stateBadge.className = cls;
    this.visBadge.textContent = v.visibility === "public" ? "Public" : v.visibility === "private" ? "Private" : "Not in the library yet";
    this.visBadge.className = v.visibility === "public" ? "badge public" : "badge muted";
    this.facts.textContent = [sourceWords(v.sourceKind), `id ${v.id}`, v.createdAt ? addedWords(v.createdAt) : ""]
      .filter(Boolean)
      .join(" · ");
    this.stateText.textContent = stateWords(v);
    this.stateText.className = `avatar-state${v.state === "failed" ? " failed" : ""}`;

    const usable = v.onBox === "ready";
    this.useLive.hidden = !usable;
    this.useLive.replaceChildren("Use in the live studio", hidden(` (${v.name})`));
    this.publishBtn.replaceChildren("Publish", hidden(` ${v.name}`));
    this.unpublishBtn.replaceChildren("Make private", hidden(` (${v.name})`));
    this.eraseBtn.replaceChildren("Erase", hidden(` ${v.name}`));
    // Publishing is for a face that was prepared; making private is always allowed.
    this.publishBtn.hidden = v.visibility !== "private" || v.state !== "ready";
    this.unpublishBtn.hidden = v.visibility !== "public";
    this.eraseBtn.hidden = v.record === null;

    if (usable) {
      if (!this.clips) {
        this.clips = new ClipPanel(this.client, v.id, this.actions.moving);
        this.li.querySelector(".avatar-actions")!.before(this.clips.el);
      }
      this.clips.setTones(v.tones);
      void this.loadStill();
    } else if (this.clips) {
      this.clips.dispose();
      this.clips.el.remove();
      this.clips = null;
    }
  }

  /** Makes the clips of `tones` (null: every tone) that have none; false while the face is not ready here. */
  buildClips(tones: string[] | null): boolean {
    if (!this.clips) return false;
    void this.clips.build(tones);
    return true;
  }

  /** Reads the clip states again when the panel was opened (a clip may be being made). */
  async refreshClips(): Promise<void> {
    if (this.clips?.isLoaded) await this.clips.refresh();
  }

  get clipsMoving(): boolean {
    return this.clips?.moving ?? false;
  }

  private async loadStill(): Promise<void> {
    if (this.stillAsked) return;
    this.stillAsked = true;
    try {
      this.stillUrl = URL.createObjectURL(await this.client.avatarPreview(this.view.id));
      this.img.src = this.stillUrl;
      this.img.alt = `Still of ${this.view.name}`;
      this.img.hidden = false;
      this.noStill.hidden = true;
    } catch {
      this.stillAsked = false; // not there yet: asked again on the next update
    }
  }

  /** After publishing or making private, the pressed button is swapped for the other one: focus follows. */
  focusVisibility(): void {
    (this.publishBtn.hidden ? this.unpublishBtn : this.publishBtn).focus();
  }

  /** Busy while a request of this row is in flight (no second click sends twice). */
  busy(on: boolean): void {
    for (const b of [this.publishBtn, this.unpublishBtn, this.eraseBtn]) b.disabled = on;
  }

  dispose(): void {
    this.clips?.dispose();
    if (this.stillUrl) URL.revokeObjectURL(this.stillUrl);
  }
}
