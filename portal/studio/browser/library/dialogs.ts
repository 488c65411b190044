// Publishing and erasing, each behind a <dialog>. Publish shows the publication terms (version and
// text), and agreeing records `POST /auth/avatars/{id}/publication-consent` then `PUT .../visibility`
// public; making private again is one click (always allowed). Erase names what goes, then
// `DELETE /auth/avatars/{id}`; the running box is asked to drop its prepared face at once too.
import { AvatarApiError, type AvatarClient } from "../../../../shared/client/index.ts";
import type { EraseResult } from "../../../../shared/wire/library.ts";
import { byId, say } from "../dom.ts";
import { portalJson } from "../portal-api.ts";
import { explain } from "../words.ts";
import type { LibraryRecord } from "./model.ts";
import type { AvatarRow } from "./rows.ts";
import { eraseWords, visibilityRefusal } from "./words.ts";

interface Terms {
  version: string;
  text: string;
  sha256: string;
}

export interface DialogHooks {
  client: AvatarClient;
  /** The library changed: read it again (and the public list). */
  changed: () => Promise<void>;
  /** Signed out or box stopped: said by the page. */
  handled: (err: unknown) => boolean;
  /** Where a page-wide outcome is said (a row that was erased is gone). */
  result: HTMLElement;
  /** The avatar was erased (not to be shown again from the box's list). */
  erased: (id: string) => void;
  /** Where focus goes once the row is gone. */
  afterErase: () => void;
  /** An erasure left archived media behind: offer to erase again. */
  eraseUnfinished: (id: string, name: string, again: () => Promise<void>) => void;
}

export class LibraryDialogs {
  private readonly publishDialog = byId<HTMLDialogElement>("publish-dialog");
  private readonly eraseDialog = byId<HTMLDialogElement>("erase-dialog");
  private readonly termsText = byId("terms-text");
  private readonly agree = byId<HTMLButtonElement>("publish-agree");
  private terms: Terms | null = null;
  private publishing: AvatarRow | null = null;
  private erasing: AvatarRow | null = null;

  constructor(private readonly hooks: DialogHooks) {
    this.publishDialog.addEventListener("close", () => void this.publishClosed());
    this.eraseDialog.addEventListener("close", () => void this.eraseClosed());
  }

  async publish(row: AvatarRow): Promise<void> {
    this.publishing = row;
    this.publishDialog.querySelector(".publish-name")!.textContent = `“${row.name}”`;
    this.publishDialog.returnValue = "";
    this.agree.disabled = !this.terms;
    if (!this.terms) this.termsText.textContent = "Loading the terms…";
    this.publishDialog.showModal();
    if (this.terms) return;
    try {
      const { terms } = await portalJson<{ terms: Terms }>("GET", "/auth/avatars/publication-terms");
      this.terms = terms;
      this.showTerms(terms);
      this.agree.disabled = false;
    } catch (err) {
      if (this.hooks.handled(err)) return;
      this.termsText.textContent = `The terms could not be loaded, so the avatar cannot be published now: ${explain(err).text}`;
    }
  }

  private showTerms(t: Terms): void {
    this.publishDialog.querySelector(".terms-version")!.textContent = `(version ${t.version})`;
    this.termsText.textContent = t.text;
  }

  private async publishClosed(): Promise<void> {
    const row = this.publishing;
    this.publishing = null;
    if (!row || this.publishDialog.returnValue !== "publish" || !this.terms) return;
    const id = encodeURIComponent(row.view.id);
    row.busy(true);
    say(row.result, "Recording your agreement and publishing…");
    try {
      await portalJson("POST", `/auth/avatars/${id}/publication-consent`, { terms_version: this.terms.version });
      await portalJson<{ avatar: LibraryRecord }>("PUT", `/auth/avatars/${id}/visibility`, { visibility: "public" });
      say(row.result, "Published: it is listed in the public library. Make it private again at any time.", "ok");
      await this.hooks.changed();
      row.busy(false);
      row.focusVisibility();
    } catch (err) {
      if (err instanceof AvatarApiError && err.code === "unknown_terms_version") this.terms = null;
      if (!this.hooks.handled(err)) say(row.result, visibilityRefusal(err), "error");
    } finally {
      row.busy(false);
    }
  }

  async unpublish(row: AvatarRow): Promise<void> {
    row.busy(true);
    say(row.result, "Making it private…");
    try {
      await portalJson("PUT", `/auth/avatars/${encodeURIComponent(row.view.id)}/visibility`, { visibility: "private" });
      say(row.result, "Private again: it is no longer listed in the public library.", "ok");
      await this.hooks.changed();
      row.busy(false);
      row.focusVisibility();
    } catch (err) {
      if (!this.hooks.handled(err)) say(row.result, visibilityRefusal(err), "error");
    } finally {
      row.busy(false);
    }
  }

  erase(row: AvatarRow): void {
    this.erasing = row;
    this.eraseDialog.querySelector(".erase-name")!.textContent = `“${row.name}”`;
    this.eraseDialog.returnValue = "";
    this.eraseDialog.showModal();
  }

  private async eraseClosed(): Promise<void> {
    const row = this.erasing;
    this.erasing = null;
    if (!row || this.eraseDialog.returnValue !== "erase") return;
    row.busy(true);
    say(row.result, "Erasing…");
    try {
      await this.eraseNow(row.view.id, row.name);
      this.hooks.afterErase();
    } catch (err) {
      if (!this.hooks.handled(err)) say(row.result, `It was not erased: ${explain(err).text}`, "error");
      row.busy(false);
    }
  }

  private async eraseNow(id: string, name: string): Promise<void> {
    const r = await portalJson<EraseResult>("DELETE", `/auth/avatars/${encodeURIComponent(id)}`);
    this.hooks.erased(id);
    let box: "removed" | "absent" | "kept" | "stopped" = "kept";
    if (r.pending.includes("prepared_avatar")) {
      try {
        await this.hooks.client.deleteAvatar(id);
        box = "removed";
      } catch (err) {
        const code = err instanceof AvatarApiError ? err.code : "";
        box = code === "unknown_avatar" ? "absent" : explain(err).kind === "box_stopped" ? "stopped" : "kept";
      }
    }
    say(this.hooks.result, eraseWords(name, r, box), "ok");
    this.hooks.result.dataset.status = r.status;
    if (r.pending.includes("archived_media")) this.hooks.eraseUnfinished(id, name, () => this.eraseNow(id, name));
    await this.hooks.changed();
  }
}
