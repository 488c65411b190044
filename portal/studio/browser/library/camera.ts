// A webcam snapshot for the upload form: getUserMedia video shown in a <video>, drawn on a canvas
// when the person presses "Take the photo", handed over as a JPEG File with a unique name (the
// box derives the avatar id from the file name). A camera that is denied or absent is said in words.
import { byId, say } from "../dom.ts";
import { cameraProblem, snapshotName } from "./words.ts";

export class Camera {
  private stream: MediaStream | null = null;
  private readonly openBtn = byId<HTMLButtonElement>("camera-open");
  private readonly panel = byId("camera-panel");
  private readonly video = byId<HTMLVideoElement>("camera-video");
  private readonly snapBtn = byId<HTMLButtonElement>("camera-snap");
  private readonly status = byId("camera-status");

  constructor(private readonly onSnapshot: (file: File) => void) {
    this.openBtn.addEventListener("click", () => void this.open());
    byId("camera-close").addEventListener("click", () => {
      this.close();
      say(this.status, "");
      this.openBtn.focus();
    });
    this.snapBtn.addEventListener("click", () => void this.snap());
    // Leaving the page (or hiding it) lets the camera go: its light goes off.
    window.addEventListener("pagehide", () => this.close());
  }

  private async open(): Promise<void> {
    if (this.stream) return;
    this.openBtn.disabled = true;
    say(this.status, "Asking the browser for the camera…");
    try {
      if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia)
        throw Object.assign(new Error("insecure"), { name: "insecure" });
      this.stream = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: 1280 }, height: { ideal: 960 }, facingMode: "user" },
        audio: false,
      });
      this.video.srcObject = this.stream;
      this.panel.hidden = false;
      await this.video.play().catch(() => undefined);
      say(this.status, "The camera is on. Face it, in good light, then press Take the photo.");
      this.snapBtn.focus();
    } catch (err) {
      this.close();
      say(this.status, cameraProblem(err), "error");
    } finally {
      this.openBtn.disabled = false;
    }
  }

  private async snap(): Promise<void> {
    const v = this.video;
    if (!this.stream || !v.videoWidth || !v.videoHeight) {
      say(this.status, "The camera has not shown a picture yet. Wait a moment, then press Take the photo again.", "error");
      return;
    }
    this.snapBtn.disabled = true;
    try {
      const canvas = document.createElement("canvas");
      canvas.width = v.videoWidth;
      canvas.height = v.videoHeight;
      canvas.getContext("2d")!.drawImage(v, 0, 0);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
      if (!blob) throw new Error("The browser could not make a JPEG of the picture.");
      const file = new File([blob], snapshotName(), { type: "image/jpeg" });
      this.close();
      say(this.status, "Photo taken. Check it below, tick the consent box, then upload.", "ok");
      this.onSnapshot(file);
    } catch (err) {
      say(this.status, `The photo could not be taken: ${(err as Error).message}`, "error");
    } finally {
      this.snapBtn.disabled = false;
    }
  }

  close(): void {
    for (const t of this.stream?.getTracks() ?? []) t.stop();
    this.stream = null;
    this.video.srcObject = null;
    this.panel.hidden = true;
  }
}
