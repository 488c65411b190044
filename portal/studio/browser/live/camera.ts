// The live page's Camera and Share screen toggles (issue 27 item 4): one slot shared by both
// (turning one on turns the other off), a small muted preview of what is sent over the avatar's
// video, and a refused permission said in words. The track goes to the call through `send`
// (Call.setCamera: replaceTrack in the slot every call's offer reserves, no reconnect); a toggle
// before the call starts is carried by the next connect (Call reads `track`).
import { byId, type Notices } from "../dom.ts";
import { cameraProblem } from "../words.ts";
import type { EventLog } from "./panels.ts";

export type CameraSource = "camera" | "screen";

const SHOWING: Record<CameraSource, string> = {
  camera: "The avatar sees your camera: a picture every half second goes to its box; nothing is stored.",
  screen: "The avatar sees your shared screen: a picture every half second goes to its box; nothing is stored.",
};

const NOT_LOOKING = "This box does not look at cameras or screens (its perception is switched off): nothing is sent to it.";

export interface CameraHooks {
  /** Puts the track (or nothing) in the live call's camera slot; resolves at once without a call. */
  send: (track: MediaStreamTrack | null) => Promise<void>;
  notices: Notices;
  log: EventLog;
}

export class CameraControl {
  private current: { source: CameraSource; track: MediaStreamTrack } | null = null;
  /** Counts toggles, so a permission prompt answered after a later toggle does not win. */
  private generation = 0;
  private readonly buttons: Record<CameraSource, HTMLButtonElement> = {
    camera: byId<HTMLButtonElement>("camera-toggle"),
    screen: byId<HTMLButtonElement>("screen-toggle"),
  };
  private readonly preview = byId<HTMLVideoElement>("camera-preview");
  private readonly status = byId("camera-status");
  /** What is sent and where, as the page wrote it (shown while both are off, so nobody turns one on blind). */
  private readonly offWords = this.status.textContent?.trim() ?? "";
  /** False once a call's box answered the camera slot inactive (BOX_PERCEPTION=off): nothing reaches it. */
  private boxLooks = true;

  constructor(private readonly hooks: CameraHooks) {
    for (const source of ["camera", "screen"] as const) {
      this.buttons[source].addEventListener("click", () => void this.toggle(source));
    }
    // Browsers without screen capture (most phones) do not offer the button.
    if (typeof navigator.mediaDevices?.getDisplayMedia !== "function") this.buttons.screen.hidden = true;
    this.show();
  }

  /** The track the next call sends (null: the slot stays empty). */
  get track(): MediaStreamTrack | null {
    return this.current?.track ?? null;
  }

  /** Turns `source` on (the other one off), or off when it is the one on. */
  async toggle(source: CameraSource): Promise<void> {
    const turningOff = this.current?.source === source;
    const generation = ++this.generation;
    this.hooks.notices.clear("camera");
    if (turningOff) return this.stop();
    let track: MediaStreamTrack;
    try {
      track = await open(source);
    } catch (err) {
      if (generation === this.generation) {
        this.hooks.notices.set("camera", "warning", cameraProblem(err, source), [
          { label: "Dismiss", run: () => this.hooks.notices.clear("camera") },
        ]);
        this.hooks.log.add(`${source === "camera" ? "Camera" : "Screen share"} not started: ${(err as Error)?.name ?? "error"}.`, "error");
      }
      return;
    }
    if (generation !== this.generation) return track.stop();
    const before = this.current;
    this.current = { source, track };
    // The browser's own "Stop sharing" (or an unplugged camera) ends the track: the toggle follows.
    track.addEventListener("ended", () => {
      if (this.current?.track !== track) return;
      this.hooks.log.add(source === "screen" ? "Screen sharing stopped from the browser." : "The camera stopped.");
      void this.stop();
    });
    this.show();
    await this.hooks.send(track).catch((err) => this.hooks.log.add(`The picture could not be sent: ${(err as Error)?.message}`, "error"));
    before?.track.stop();
    this.hooks.log.add(source === "camera" ? "Camera on: the avatar sees you." : "Screen shared with the avatar.");
  }

  /** Stops sending and releases the device (also when the page goes away). */
  async stop(): Promise<void> {
    const was = this.current;
    if (!was) return;
    this.current = null;
    this.show();
    await this.hooks.send(null).catch(() => undefined);
    was.track.stop();
    this.hooks.log.add(was.source === "camera" ? "Camera off." : "Screen sharing off.");
  }

  /** The call's answer said whether its box looks at the camera at all. */
  setBoxLooks(looks: boolean): void {
    this.boxLooks = looks;
    this.show();
  }

  private show(): void {
    const on = this.current;
    for (const source of ["camera", "screen"] as const) this.buttons[source].setAttribute("aria-pressed", String(on?.source === source));
    this.status.textContent = !this.boxLooks ? NOT_LOOKING : on ? SHOWING[on.source] : this.offWords;
    this.preview.hidden = !on;
    this.preview.dataset.source = on?.source ?? "";
    this.preview.srcObject = on ? new MediaStream([on.track]) : null;
    if (on) void this.preview.play().catch(() => undefined);
  }
}

/** Asks the browser for the camera or a screen (its picker); the first video track. */
async function open(source: CameraSource): Promise<MediaStreamTrack> {
  const devices = navigator.mediaDevices;
  if (!devices) throw Object.assign(new Error("no media devices"), { name: "NotSupportedError" });
  const stream =
    source === "camera"
      ? // The camera's own shape (no size asked, so nothing is cropped): the box scales it to 768 px itself.
        await devices.getUserMedia({ video: true, audio: false })
      : await devices.getDisplayMedia({ video: true, audio: false });
  const track = stream.getVideoTracks()[0];
  if (!track) throw Object.assign(new Error("no video track"), { name: "NotFoundError" });
  return track;
}
