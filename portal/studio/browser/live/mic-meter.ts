// The microphone's live input level on the live page: a Web Audio AnalyserNode on the same stream
// the voice socket sends (its own AudioContext, nothing routed to the speakers), drawn into the
// `#mic-meter` bar each animation frame, with `aria-valuenow` as a percentage. It also tells when
// a voice is heard (the level above a floor), so the state can say "Hearing you".
import { byId } from "../dom.ts";

/** RMS of the time-domain samples that counts as a voice (−40 dBFS), held this long after it fades. */
const VOICE_RMS = 0.01;
const HEARD_HOLD_MS = 350;

export class MicMeter {
  private ctx: AudioContext | null = null;
  private frame = 0;
  private heardAt = -Infinity;
  private hearing = false;
  /** While false (hold-to-talk released) the bar rests at zero: nothing is being sent. */
  private sending = false;
  private readonly el = byId("mic-meter");
  private readonly fill = this.el.querySelector<HTMLElement>(".mic-meter-fill")!;

  constructor(private readonly onHearing: (hearing: boolean) => void) {}

  /** Starts measuring `stream` (replacing any stream measured before). */
  watch(stream: MediaStream): void {
    this.stop();
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    this.ctx = ctx;
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 1024;
    ctx.createMediaStreamSource(stream).connect(analyser);
    if (ctx.state === "suspended") void ctx.resume().catch(() => undefined);
    const samples = new Float32Array(analyser.fftSize);
    const draw = () => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const x of samples) sum += x * x;
      const rms = Math.sqrt(sum / samples.length);
      this.show(this.sending ? rms : 0);
      this.frame = requestAnimationFrame(draw);
    };
    this.el.dataset.on = "true";
    this.frame = requestAnimationFrame(draw);
  }

  /** Whether what the microphone hears is being sent now. */
  setSending(sending: boolean): void {
    this.sending = sending;
  }

  stop(): void {
    cancelAnimationFrame(this.frame);
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
    this.el.dataset.on = "false";
    this.show(0);
  }

  /** The bar on a decibel scale (−60 dBFS empty, 0 full), so speech fills a good part of it. */
  private show(rms: number): void {
    const db = rms > 0 ? 20 * Math.log10(rms) : -Infinity;
    const level = Math.max(0, Math.min(1, (db + 60) / 60));
    this.fill.style.transform = `scaleX(${level.toFixed(3)})`;
    this.el.setAttribute("aria-valuenow", String(Math.round(level * 100)));
    const now = performance.now();
    if (rms >= VOICE_RMS) this.heardAt = now;
    const hearing = now - this.heardAt < HEARD_HOLD_MS;
    if (hearing !== this.hearing) {
      this.hearing = hearing;
      this.onHearing(hearing);
    }
  }
}
