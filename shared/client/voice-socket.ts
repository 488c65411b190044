// Implements: Voice socket WSS /api/voice/ws: 16 kHz mono s16le in as binary frames; `config`
// (sent on every open and whenever it changes), `mute`, `auth`, `bye`, `resume`, `tool_result`;
// the seventeen event types out; `metric` as the per-turn latency mark. In a browser the
// microphone is captured here; elsewhere the caller feeds PCM with sendPcm().
import type { HttpCore } from "./http.ts";
import { BoxSocket, now, type SocketOptions } from "./socket-base.ts";
import type { ToolRegistry } from "./tools.ts";
import { openMicrophone, type Microphone, type MicrophoneEvents, type MicrophoneOptions } from "./microphone.ts";
import type { VoiceFrames } from "./wire.ts";

export interface VoiceConfig {
  avatar?: string;
  voice?: string;
  voice_provider?: string;
}

export interface VoiceSocketOptions extends SocketOptions {
  config?: VoiceConfig;
}

/** Local microphone events beside the wire's. */
export type VoiceLocalEvents = MicrophoneEvents;

const KNOWN = new Set([
  "ready",
  "partial",
  "endpoint",
  "final",
  "caption_clear",
  "state",
  "tool",
  "action",
  "reply_chunk",
  "metric",
  "reply",
  "reply_error",
  "session_end",
  "voice_notice",
  "auth_required",
  "auth_state",
  "error",
  "session_expired",
  "tool_call_started",
  "tool_call",
  "tool_call_completed",
  "tool_call_failed",
]);

/** Sent audio this loud (s16 RMS, about −35 dBFS) after ONSET_QUIET_MS below it is a voice onset. */
const ONSET_RMS = 600;
const ONSET_QUIET_MS = 400;

export class VoiceSocket extends BoxSocket<VoiceFrames & VoiceLocalEvents> {
  protected readonly path = "/api/voice/ws";
  protected readonly readyType = "ready";
  protected readonly known = KNOWN;
  private config: VoiceConfig;
  private muted = false;
  private mic: Microphone | null = null;
  /** The `ready` frame of the current connection (null until recognition is attached). */
  ready: VoiceFrames["ready"] | null = null;
  /** A pause is shown only on a frame that carries `paused`. */
  paused = false;

  constructor(http: HttpCore, tools: ToolRegistry, options: VoiceSocketOptions = {}) {
    super(http, tools, options);
    this.config = { ...options.config };
    // A socket that ends for good stops capturing; one that reconnects keeps the microphone.
    this.on({ disconnected: (d) => !d.willRetry && this.stopMicrophone() });
  }

  /** Picks face and voice; kept and sent again on every reconnect. */
  configure(config: VoiceConfig): void {
    this.config = { ...this.config, ...config };
    if (this.connected) this.send({ type: "config", ...this.config });
  }

  /** States the mic switch (kept across reconnects). */
  mute(muted: boolean): void {
    this.muted = muted;
    if (this.connected) this.send({ type: "mute", muted });
  }

  /** Ends a pause; always answered with an `action` frame `paused: false`. */
  resume(): void {
    this.send({ type: "resume" });
  }

  /** Ends the session from the client side (`bye`), stops the microphone, never reconnects. */
  end(): void {
    this.stopMicrophone();
    if (this.connected) this.send({ type: "bye" });
    this.close();
  }

  /** One binary frame of 16 kHz mono signed 16-bit PCM (20 ms = 320 samples is a good size). */
  sendPcm(pcm: Int16Array): void {
    if (this.ready === null) return; // audio before `ready` is dropped by the box
    this.sendBinary(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    this.watchOnset(pcm);
  }

  private loudAt = -Infinity;

  /**
   * A `timing` mark `voice_onset` (ms since open()) when the sent audio turns loud after a quiet
   * spell: where the person started speaking as this side heard it, for barge-in latency.
   */
  private watchOnset(pcm: Int16Array): void {
    let sum = 0;
    for (let i = 0; i < pcm.length; i++) sum += pcm[i] * pcm[i];
    if (pcm.length === 0 || Math.sqrt(sum / pcm.length) < ONSET_RMS) return;
    const t = now();
    if (t - this.loudAt > ONSET_QUIET_MS) this.mark("voice_onset", t - this.startedAt);
    this.loudAt = t;
  }

  /**
   * Browser only: captures the microphone (echo cancellation, noise suppression and automatic
   * gain requested), resamples to 16 kHz and streams it. Failures are told in words through
   * `mic_state` and thrown as AvatarApiError.
   */
  async startMicrophone(options: MicrophoneOptions = {}): Promise<Microphone> {
    if (this.mic) return this.mic;
    this.mic = await openMicrophone(
      (pcm) => this.sendPcm(pcm),
      options,
      (type, payload) => this.emitter.emit(type as never, payload as never),
    );
    return this.mic;
  }

  override close(): void {
    this.stopMicrophone();
    super.close();
  }

  stopMicrophone(): void {
    this.mic?.stop();
    this.mic = null;
  }

  protected override onOpened(): void {
    this.ready = null;
    if (Object.keys(this.config).length > 0) this.send({ type: "config", ...this.config });
    if (this.muted) this.send({ type: "mute", muted: true });
  }

  protected override onFrame(f: { type: string; [k: string]: unknown }): void {
    if (f.type === "ready") this.ready = f as unknown as VoiceFrames["ready"];
    if (f.type === "metric" && typeof f.first_audio_ms === "number") this.mark("turn_latency", f.first_audio_ms, { spec: f.spec === true });
    if (f.type === "action" && typeof f.paused === "boolean") this.paused = f.paused;
    if (f.type === "reply_chunk" || f.type === "reply") this.paused = false; // any reply ends a pause
  }

  protected override onTransportClosed(): void {
    this.ready = null;
  }
}
