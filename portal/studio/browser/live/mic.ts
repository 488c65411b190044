// Open mic and hold-to-talk through the voice socket (`/api/voice/ws`, the client library's
// VoiceSocket): live captions (`partial`, `final`, `caption_clear`), state frames, actions (a pause
// shown only on a frame that carries `paused`), `voice_notice`, and failures in words. While the
// microphone sends, its level shows in a meter (live/mic-meter.ts) and the state says whether it
// hears a voice.
import type { AvatarClient, VoiceSocket } from "../../../../shared/client/index.ts";
import { byId, type Notices } from "../dom.ts";
import { explain } from "../words.ts";
import type { Call } from "./call.ts";
import { MicMeter } from "./mic-meter.ts";
import type { Captions, CallState, EventLog, Latency } from "./panels.ts";
import type { Pickers } from "./pickers.ts";
import type { ToolView } from "./tools.ts";

export interface MicDeps {
  client: AvatarClient;
  call: Call;
  pickers: Pickers;
  captions: Captions;
  state: CallState;
  log: EventLog;
  latency: Latency;
  notices: Notices;
  voiceNotice: (notice: string) => void;
  tools: ToolView;
  /** A failure, in words, for the notices (signed out: the sign-in notice). */
  problem: (err: unknown) => void;
}

const TAIL_MS = 400;
const HOLD_WORDS = "Hold to talk: press and hold the button (or Space) while you speak; let go and the avatar answers.";

export class MicControl {
  private socket: VoiceSocket | null = null;
  private opening: Promise<VoiceSocket> | null = null;
  private mode: "off" | "open" | "hold" = "off";
  private held = false;
  private readonly openBtn = byId<HTMLButtonElement>("open-mic");
  private readonly holdBtn = byId<HTMLButtonElement>("hold-to-talk");
  private readonly status = byId("mic-status");
  private readonly meter: MicMeter;

  constructor(private readonly d: MicDeps) {
    this.meter = new MicMeter((hearing) => d.state.set({ hearing }));
    this.openBtn.addEventListener("click", () => void (this.mode === "open" ? this.stop() : this.openMic()));
    const press = (e: Event) => {
      e.preventDefault();
      void this.hold(true);
    };
    const release = () => void this.hold(false);
    this.holdBtn.addEventListener("pointerdown", press);
    for (const t of ["pointerup", "pointercancel", "pointerleave"]) this.holdBtn.addEventListener(t, release);
    this.holdBtn.addEventListener("keydown", (e) => (e.key === " " || e.key === "Enter") && !e.repeat && press(e));
    this.holdBtn.addEventListener("keyup", (e) => (e.key === " " || e.key === "Enter") && release());
    this.holdBtn.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  /** The picked face or voice changed: the socket is told (it also re-sends on reconnects). */
  configure(): void {
    this.socket?.configure({ avatar: this.d.pickers.face(), ...this.d.pickers.voice() });
  }

  stop(): void {
    this.socket?.close();
    this.socket = null;
    this.mode = "off";
    this.held = false;
    this.openBtn.setAttribute("aria-pressed", "false");
    this.openBtn.textContent = "Open mic";
    this.holdBtn.classList.remove("held");
    this.meter.stop();
    this.sending(false);
    this.d.state.set({ socketSpeaking: false, paused: false });
    this.d.notices.clear("paused");
    this.say("The microphone is off.");
  }

  private async openMic(): Promise<void> {
    this.mode = "open";
    this.openBtn.setAttribute("aria-pressed", "true");
    this.openBtn.textContent = "Close mic";
    const s = await this.ensure();
    if (!s || this.mode !== "open") return;
    s.mute(false);
    this.sending(true);
    this.say("Open mic: speak whenever you like; the avatar answers when you pause.");
  }

  /** What the microphone hears is sent (or not): the meter and the state follow. */
  private sending(on: boolean): void {
    this.meter.setSending(on);
    this.d.state.set({ micOn: on });
  }

  private async hold(down: boolean): Promise<void> {
    this.held = down;
    this.holdBtn.classList.toggle("held", down);
    if (down && this.mode === "open") return;
    if (!down) {
      // A short tail so the last word is not cut before the box hears it.
      setTimeout(() => {
        if (this.mode !== "hold" || this.held) return;
        this.socket?.mute(true);
        this.sending(false);
      }, TAIL_MS);
      if (this.mode === "hold") this.say(HOLD_WORDS);
      return;
    }
    this.mode = "hold";
    const s = await this.ensure(true);
    if (!s || this.mode !== "hold") return;
    s.mute(!this.held);
    this.sending(this.held);
    if (this.held) this.say("Listening while you hold the button: let go when you have finished.");
  }

  private ensure(startMuted = false): Promise<VoiceSocket | null> {
    if (this.socket) return Promise.resolve(this.socket);
    this.opening ??= this.open(startMuted).finally(() => (this.opening = null));
    return this.opening.catch((err) => {
      this.fail(err);
      return null;
    });
  }

  private async open(startMuted: boolean): Promise<VoiceSocket> {
    const { client, call, pickers } = this.d;
    await call.ensure(pickers.face());
    this.say("Opening the microphone…");
    const s = client.voice({ config: { avatar: pickers.face(), ...pickers.voice() } });
    s.mute(startMuted);
    this.wire(s);
    this.socket = s;
    try {
      await s.open();
      const mic = await s.startMicrophone();
      this.meter.watch(mic.stream);
    } catch (err) {
      if (this.socket === s) this.socket = null;
      s.close();
      throw err;
    }
    this.d.log.add("Microphone socket ready: the box is listening.");
    return s;
  }

  /**
   * The box ended the session because this page's credential was revoked (close 4004): the call is
   * over on the box too. A fresh credential comes from the portal while the person is still signed
   * in; the page says what happened and offers to start again (signed out: the sign-in notice).
   */
  private async revoked(): Promise<void> {
    const { client, call, notices, log } = this.d;
    this.stop();
    call.drop();
    try {
      await client.http.credentials.refresh();
    } catch (err) {
      this.d.problem(err);
      return;
    }
    log.add("Got a new box credential from the portal.");
    notices.set(
      "revoked",
      "warning",
      "The box ended this call: the page's credential was revoked (signed out elsewhere, or revoked by an administrator). A new one is ready.",
      [
        {
          label: "Start again",
          run: async () => {
            notices.clear("revoked");
            await call.start(this.d.pickers.face()).catch((err) => this.d.problem(err));
          },
        },
      ],
    );
    this.say("The microphone is off: the call ended.", true);
  }

  private fail(err: unknown): void {
    const text = explain(err).text;
    this.stop();
    this.say(text, true);
    this.d.log.add(`Microphone: ${text}`, "error");
  }

  private say(text: string, error = false): void {
    this.status.textContent = text;
    this.status.className = `mic-status${error ? " error" : ""}`;
  }

  private wire(s: VoiceSocket): void {
    const { captions, state, log, latency, notices } = this.d;
    s.on({
      timing: (t) => {
        if (t.mark === "ready") latency.ms("voice_ready", t.ms);
        if (t.mark === "voice_onset") this.d.call.voiceOnset();
      },
      mic_state: ({ state: m, message }) => {
        if (m === "pending") this.say("Asking the browser for the microphone…");
        if (m === "denied" || m === "unavailable") {
          notices.set("mic", "error", message ?? "The microphone could not be opened.");
          log.add(`Microphone ${m}: ${message ?? ""}`, "error");
        }
        if (m === "granted") notices.clear("mic");
      },
      partial: (f) => captions.partial(f.text),
      final: (f) => captions.you(f.text),
      caption_clear: () => captions.clearPartial(),
      state: (f) => {
        if (typeof f.thinking === "boolean") state.set({ thinking: f.thinking });
        if (typeof f.speaking === "boolean") state.set({ socketSpeaking: f.speaking });
        if (f.bargein) {
          log.add("You took the floor back: the avatar stopped.");
          this.d.call.bargedIn();
        }
      },
      action: (f) => {
        this.d.tools.action(f);
        if (typeof f.paused !== "boolean") return;
        state.set({ paused: f.paused });
        if (f.paused)
          notices.set(
            "paused",
            "info",
            `The avatar paused the conversation${f.max_seconds ? ` (for up to ${f.max_seconds} s)` : ""}. Speak to go on, or:`,
            [{ label: "Resume", run: () => s.resume() }],
          );
        else notices.clear("paused");
      },
      reply_chunk: (f) => captions.avatarChunk(f.text),
      reply: (f) => captions.avatarDone(f.reply),
      reply_error: (f) => log.add(`The reply failed: ${f.error}`, "error"),
      metric: (f) => latency.ms("voice_turn", f.first_audio_ms),
      voice_notice: (f) => this.d.voiceNotice(f.notice),
      // The same tool frames and handlers as typed Chat turns (one registry on the client).
      ...this.d.tools.frames(),
      session_end: () => {
        log.add("The avatar ended the call.");
        this.stop();
        void this.d.call.end();
      },
      session_expired: (f) => notices.set("expired", "warning", `${f.message} Press Start call to begin again.`),
      error: (f) => log.add(`Microphone socket: ${f.error}`, "error"),
      reconnecting: ({ attempt, delayMs }) =>
        this.say(`The microphone socket dropped; reconnecting (try ${attempt}, in ${Math.round(delayMs / 100) / 10} s)…`),
      connected: () => this.mode !== "off" && this.say(this.mode === "open" ? "Open mic: speak whenever you like." : HOLD_WORDS),
      disconnected: (d) => {
        if (d.willRetry || d.reason === "client") return;
        log.add(`Microphone socket closed: ${d.message}`, "error");
        if (this.socket !== s) return;
        if (d.reason === "credential_revoked") return void this.revoked();
        this.fail(d.error ?? new Error(d.message));
      },
    });
  }
}
