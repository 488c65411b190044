// The upload form: a file from the computer or a camera snapshot, checked here before anything is
// sent; the consent attestation (a ticked box, then `POST /auth/consent` with the SHA-256 of the
// exact bytes, computed by WebCrypto); then the box's `POST /api/avatar` with `consent_token` and
// the tones asked, through the client library, under the name the person gave (the box names the
// avatar after the file). Refusals are said in words.
import type { AvatarClient, AvatarUploadAnswer } from "../../../../shared/client/index.ts";
import { byId, h, say } from "../dom.ts";
import { portalJson } from "../portal-api.ts";
import { Camera } from "./camera.ts";
import { avatarLabel, checkFile, megabytes, uploadFilename, uploadRefusal, type FileFamily } from "./words.ts";

interface Chosen {
  file: File;
  family: FileFamily;
  camera: boolean;
}

export interface UploadHooks {
  client: AvatarClient;
  /** A library avatar already shows this name (uploading under it replaces that avatar). */
  sameName: (name: string) => boolean;
  /** The box took the upload: show it, follow its preparation, then make the clips of `tones` (null: every tone). */
  uploaded: (answer: AvatarUploadAnswer, filename: string, tones: string[] | null) => void;
  /** Signed out or box stopped: said by the page (true when it was one of those). */
  handled: (err: unknown) => boolean;
}

async function sha256Hex(file: Blob): Promise<string> {
  if (!crypto?.subtle)
    throw new Error(
      "This page cannot compute the file's fingerprint here: open the studio over https (or on this computer's own address).",
    );
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class UploadForm {
  private chosen: Chosen | null = null;
  /** The sentence of the last file refused here (said again when the person presses Upload). */
  private refused = "";
  private stillUrl: string | null = null;
  private readonly form = byId<HTMLFormElement>("upload-form");
  private readonly input = byId<HTMLInputElement>("upload-file");
  private readonly attest = byId<HTMLInputElement>("attest");
  private readonly submit = byId<HTMLButtonElement>("upload-submit");
  private readonly result = byId("upload-result");
  private readonly chosenBox = byId("chosen");
  private readonly chosenStill = byId<HTMLImageElement>("chosen-still");
  private readonly toneBoxes = byId("tone-boxes");
  private readonly nameInput = byId<HTMLInputElement>("upload-name");
  private readonly camera: Camera;

  constructor(private readonly hooks: UploadHooks) {
    this.camera = new Camera((file) => {
      this.input.value = "";
      this.show({ file, family: "image", camera: true });
    });
    this.input.addEventListener("change", () => void this.picked());
    this.nameInput.addEventListener("input", () => this.sayWhat());
    byId("chosen-clear").addEventListener("click", () => {
      this.clear();
      this.input.focus();
    });
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.send();
    });
  }

  /** The tone checkboxes (`GET /auth/avatars/tones`); neutral is always built. */
  async loadTones(): Promise<void> {
    try {
      const { tones } = await portalJson<{ tones: string[] }>("GET", "/auth/avatars/tones");
      this.toneBoxes.replaceChildren(
        ...tones.map((t) =>
          h(
            "div",
            { class: "tone-box" },
            h("input", { type: "checkbox", id: `tone-${t}`, name: "tone", value: t, checked: true, disabled: t === "neutral" }),
            h("label", { for: `tone-${t}` }, t === "neutral" ? "neutral (always)" : t),
          ),
        ),
      );
    } catch (err) {
      if (this.hooks.handled(err)) return;
      this.toneBoxes.replaceChildren(h("p", { class: "hint" }, "The tones could not be listed, so every tone the box knows is built."));
    }
  }

  private tones(): string[] | undefined {
    const boxes = [...this.toneBoxes.querySelectorAll<HTMLInputElement>("input[name=tone]")];
    return boxes.length ? boxes.filter((b) => b.checked).map((b) => b.value) : undefined;
  }

  private async picked(): Promise<void> {
    const file = this.input.files?.[0];
    say(this.result, "");
    if (!file) return this.clear();
    const check = checkFile(file.name, file.size, new Uint8Array(await file.slice(0, 16).arrayBuffer()));
    if (!check.ok) {
      this.clear();
      this.refused = check.text;
      say(this.result, check.text, "error");
      return;
    }
    this.camera.close();
    this.show({ file, family: check.family, camera: false });
  }

  private show(c: Chosen): void {
    this.chosen = c;
    this.refused = "";
    say(this.result, "");
    if (this.stillUrl) URL.revokeObjectURL(this.stillUrl);
    this.stillUrl = c.family === "image" ? URL.createObjectURL(c.file) : null;
    this.chosenStill.hidden = !this.stillUrl;
    if (this.stillUrl) this.chosenStill.src = this.stillUrl;
    else this.chosenStill.removeAttribute("src");
    this.chosenBox.querySelector(".chosen-name")!.textContent = c.file.name;
    // A snapshot keeps its unique file name unless the person types one (two snapshots never collide).
    this.nameInput.value = c.camera ? "" : avatarLabel(c.file.name);
    this.nameInput.placeholder = avatarLabel(c.file.name);
    this.sayWhat();
    this.chosenBox.hidden = false;
    this.attest.checked = false; // the agreement is to these bytes: tick it for each file
  }

  /** What the chosen file is, and whether its name replaces an avatar. */
  private sayWhat(): void {
    const c = this.chosen;
    if (!c) return;
    const what = `${c.camera ? "Camera photo" : c.family === "image" ? "Photo" : "Video"}, ${megabytes(c.file.size)}.`;
    const same = this.hooks.sameName(avatarLabel(this.filename(c))) ? " An avatar of this name exists: uploading replaces it." : "";
    const video = c.family === "video" ? " A video keeps the motion it was filmed with; only its neutral face is prepared." : "";
    this.chosenBox.querySelector(".chosen-what")!.textContent = what + same + video;
  }

  private filename(c: Chosen): string {
    return uploadFilename(this.nameInput.value, c.file.name);
  }

  private clear(): void {
    this.chosen = null;
    say(byId("camera-status"), "");
    this.refused = "";
    this.input.value = "";
    this.chosenBox.hidden = true;
    this.chosenStill.hidden = true;
    this.chosenStill.removeAttribute("src");
    if (this.stillUrl) URL.revokeObjectURL(this.stillUrl);
    this.stillUrl = null;
  }

  private async send(): Promise<void> {
    const c = this.chosen;
    if (!c) {
      say(this.result, this.refused || "Choose a photo or a video first, or take a photo with the camera.", "error");
      this.input.focus();
      return;
    }
    if (!this.attest.checked) {
      say(this.result, "Tick the consent box first: you are the person shown, or you have their permission. Nothing was sent.", "error");
      this.attest.focus();
      return;
    }
    this.submit.disabled = true;
    try {
      say(this.result, "Recording your agreement to this file…");
      const sha256 = await sha256Hex(c.file);
      const { consent } = await portalJson<{ consent: { consent_id: string } }>("POST", "/auth/consent", {
        sha256,
        source_kind: c.family === "video" ? "video" : "photo",
      });
      const filename = this.filename(c);
      const tones = this.tones() ?? null;
      say(this.result, `Uploading ${c.file.name} (${megabytes(c.file.size)})…`);
      const answer = await this.hooks.client.uploadAvatar({
        file: c.file,
        filename,
        tones: tones ?? undefined,
        consent_token: consent.consent_id,
      });
      const note = answer.note ? ` ${answer.note}` : "";
      const clips =
        c.family === "image"
          ? " The clips of the tones you ticked are made next, without another press; each shows its progress there."
          : "";
      const state = answer.status === "ready" ? "It is ready." : "Its preparation shows under Your avatars, with the time it takes.";
      say(
        this.result,
        `${c.file.name} is uploaded as the avatar “${avatarLabel(filename)}” (id ${answer.avatar}). ${state}${clips}${note}`,
        "ok",
      );
      this.clear();
      this.attest.checked = false;
      this.hooks.uploaded(answer, filename, c.family === "image" ? tones : []);
    } catch (err) {
      this.hooks.handled(err);
      say(this.result, uploadRefusal(err), "error");
    } finally {
      this.submit.disabled = false;
    }
  }
}
