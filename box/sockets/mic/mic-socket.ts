// Implements: Voice socket WSS /api/voice/ws, the adapter: the microphone in (16 kHz s16le) to the
// VAD, the recogniser and the turn-taking core (turn-core.ts); the core's actions out as frames,
// timers and turns (voice-turn.ts); the client's messages; the refusals 4005 and 4006.
import type { Language } from "../../../shared/wire/tones.ts";
import type { AsrStream } from "../../stt/asr.ts";
import { pcmFromBytes } from "../../stt/vad-segmenter.ts";
import { VoiceActivity } from "../../stt/voice-activity.ts";
import type { SileroVad } from "../../stt/silero-vad.ts";
import type { LiveSession } from "../../live/live-session.ts";
import type { VoiceFrame } from "../../../shared/wire/socket-frames.ts";
import type { SocketConn } from "../conn.ts";
import { SocketSession, maxLengthFrom } from "../socket-session.ts";
import { PauseState } from "./pause.ts";
import { ACTION_LABELS } from "./lines.ts";
import { VAD_MIN_SILENCE_MS } from "./end-of-turn.ts";
import { TurnCore } from "./turn-core.ts";
import type { Senses, TurnAction } from "./turn-actions.ts";
import { TurnTimers } from "./turn-timers.ts";
import type { VoiceCall } from "./voice-call.ts";
import { applyConfig } from "./voice-config.ts";
import { VoiceTurns } from "./voice-turn.ts";
import type { VoiceSocketDeps } from "./mic-route.ts";

const MAX_BACKLOG_SAMPLES = 16_000 * 5;

export class VoiceSocket implements VoiceCall {
  readonly session: SocketSession;
  readonly pause: PauseState;
  readonly core: TurnCore;
  private asr: AsrStream | null = null;
  private vad: VoiceActivity | null = null;
  private vadModel: SileroVad | null = null;
  private ready = false;
  private backlog = 0;
  private warnedOdd = false;
  language: Language = "en";
  voice: string | undefined;
  voiceProvider: string | undefined;
  private offNotice: () => void = () => {};
  private readonly turns = new VoiceTurns(this);
  private readonly timers = new TurnTimers((timer) => this.core.fired(timer, this.senses()));

  constructor(
    readonly conn: SocketConn<VoiceFrame>,
    readonly d: VoiceSocketDeps,
    readonly live: LiveSession,
  ) {
    const policy = { ...d.policy, maxSeconds: maxLengthFrom(conn.query, d.policy.maxSeconds) };
    // The mic socket drives the voice session: its windows and a revocation end the live session.
    const binding = {
      current: () => (live.isClosed ? null : live),
      expire: d.sessions.expire.bind(d.sessions),
      revoked: () => d.disconnect(),
    };
    this.session = new SocketSession(conn, d.auth, policy, () => this.teardown(), binding);
    this.pause = new PauseState(d.pauseMaxSeconds, (reason) =>
      conn.send({ type: "action", name: "pause_conversation", label: ACTION_LABELS.pause_conversation, paused: false, reason }),
    );
    const options = { speculative: d.speculative, bargePause: d.bargePause ?? true, now: () => performance.now() };
    this.core = new TurnCore(options, (a) => this.perform(a));
  }

  /** Attaches recognition; `ready` is the only proof the session works. */
  async start(): Promise<void> {
    try {
      this.vadModel = await this.d.loadVad();
      this.vad = new VoiceActivity(this.vadModel, { probabilities: true, minSilenceMs: VAD_MIN_SILENCE_MS });
    } catch (err) {
      return this.session.fatal(`The box could not set the session up: ${(err as Error).message}`, 4006);
    }
    try {
      await this.attachAsr();
    } catch (err) {
      return this.session.fatal(`Speech recognition would not start: ${(err as Error).message}`, 4005);
    }
    if (this.conn.closed) return this.teardown();
    this.ready = true;
    this.session.start();
    // A window that ran out is reported (4007/4008); any other end (/disconnect, a new /connect) is a plain 1000.
    void this.live.closedPromise.then(() =>
      this.live.expiry ? this.session.expired(this.live.expiry) : this.conn.close(1000, "the live session ended"),
    );
    const subject = this.conn.principal.subject;
    const route = await this.d.accounts?.route({ subject }).catch(() => null);
    this.conn.send({ type: "ready", sample_rate: 16000, voice_origin: route?.origin ?? "box" });
    if (this.d.accounts) {
      this.offNotice = this.d.accounts.onNotice(subject, (notice) => this.conn.send({ type: "voice_notice", notice }));
      if (route?.notice) this.conn.send({ type: "voice_notice", notice: route.notice });
    }
  }

  async attachAsr(): Promise<void> {
    const stream = await this.d.asr.start({
      sampleRate: 16000,
      language: this.language,
      ...(this.d.grammar ? { grammar: this.d.grammar } : {}),
    });
    this.asr?.close();
    this.asr = stream;
    stream.on("partial", (t) => this.core.partialWords(t, this.senses()));
    stream.on("final", (t) => this.core.finalWords(t, this.senses()));
    stream.on("error", (err) => {
      if (stream !== this.asr) return;
      this.conn.send({ type: "error", error: `The transcription stream ended: ${err.message}` });
      this.conn.close(1000, "transcription ended");
    });
  }

  message(data: unknown): void {
    if (Buffer.isBuffer(data) || data instanceof Uint8Array) return this.audio(data);
    if (typeof data !== "object" || data === null || Array.isArray(data)) {
      this.conn.send({ type: "error", error: "Text frames are JSON control messages with a type." });
      return;
    }
    const m = data as Record<string, unknown>;
    switch (m.type) {
      case "config":
        this.session.activity();
        return applyConfig(this, m);
      case "mute":
        this.session.activity();
        return this.core.mute(m.muted === true);
      case "auth":
        return void this.session.renew(m.token);
      case "bye":
        this.core.bye();
        this.conn.close(1000, "bye");
        return;
      case "resume":
        this.session.activity();
        return this.pause.end("resumed");
      case "tool_result":
        return void this.d.calls.deliver(this.conn.id, m.call_id, m.ok, m.result, m.error);
      default:
        return; // unknown types are ignored
    }
  }

  private audio(bytes: Uint8Array): void {
    if (!this.ready || this.core.muted || this.core.ending) return;
    const { pcm, oddLength } = pcmFromBytes(bytes);
    if (oddLength && !this.warnedOdd) {
      this.warnedOdd = true;
      this.conn.send({ type: "error", error: "Audio frames must be whole 16-bit samples (16 kHz mono s16le); an odd byte was dropped." });
    }
    if (pcm.length === 0) return;
    // A client flooding faster than real time is cut off rather than queued without bound.
    if (this.backlog > MAX_BACKLOG_SAMPLES) return;
    this.backlog += pcm.length;
    this.core.audio(pcm);
    this.asr?.write(pcm);
    void this.vad!.push(pcm).then((events) => {
      this.backlog -= pcm.length;
      for (const e of events) this.core.vad(e, this.senses());
      this.core.vadDone(this.senses());
    });
  }

  /** What the core is told with each event: read at that moment, as the decision needs it. */
  private senses(): Senses {
    return { vadSpeaking: this.vad?.speaking ?? false, avatarSpeaking: this.live.speaking };
  }

  /** Each action of the core, done at once (a gate's held frames go out inside `confirm`). */
  private readonly effects: { [K in TurnAction["type"]]: (a: Extract<TurnAction, { type: K }>) => void } = {
    send: (a) => this.conn.send(a.frame),
    turn: (a) => void this.turns.run(a.message),
    speculate: (a) => void this.turns.run(a.message, a.gate),
    confirm: (a) => a.gate.confirm(),
    drop: (a) => a.gate.drop(),
    hold_speech: () => void this.live.holdSpeech(),
    release_speech: () => this.live.releaseSpeech(),
    interrupt: () => this.d.interrupt(),
    finalize_words: () => this.asr?.finalize(),
    forget_voice_history: () => this.vad?.forgetHistory(),
    end_pause: () => this.pause.paused && this.pause.end("spoke"),
    activity: () => this.session.activity(),
    arm: (a) => this.timers.arm(a.timer, a.ms),
    disarm: (a) => this.timers.disarm(a.timer),
  };

  private perform(a: TurnAction): void {
    (this.effects[a.type] as (a: TurnAction) => void)(a);
  }

  teardown(): void {
    this.core.close();
    this.offNotice();
    this.timers.clear();
    this.pause.endByReply();
    this.session.stop();
    this.asr?.close();
    this.asr = null;
    void this.vadModel?.dispose();
    this.vadModel = null;
  }
}
