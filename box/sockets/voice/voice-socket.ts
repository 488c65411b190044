// Implements: Voice socket WSS /api/voice/ws — the microphone in (16 kHz s16le), its seventeen
// event types, turn-taking, barge-in, system tools and the WebSocket refusals (4001-4008).
import { voiceForCall } from "../../voice/voice-language.ts";
import { UpstreamError } from "../../../shared/errors/api-error.ts";
import { isTone, type Language } from "../../../shared/wire/tones.ts";
import type { AsrStream } from "../../speech/asr.ts";
import { pcmFromBytes, WINDOW_MS } from "../../speech/vad-segmenter.ts";
import { VoiceActivity } from "../../speech/voice-activity.ts";
import type { SileroVad } from "../../speech/silero-vad.ts";
import type { LiveSession } from "../../live/live-session.ts";
import type { SocketConn } from "../conn.ts";
import { SocketSession, maxLengthFrom } from "../socket-session.ts";
import { PauseState } from "./pause.ts";
import { endpointFor, isRealUtterance, speculationReady } from "./turn-taking.ts";
import { ConfirmGate } from "../../chat/turn-engine.ts";
import { runSystemTool, systemToolSpecs, type SystemToolHost } from "./system-tools.ts";
import { ACTION_LABELS } from "./lines.ts";
import { BargeInController } from "./barge-in.ts";
import { TurnEndClock, VAD_MIN_SILENCE_MS } from "./end-of-turn.ts";
import type { VoiceSocketDeps } from "./voice-route.ts";

/** End of turn counts audio time; this wall-clock margin only rescues a client that stopped sending audio. */
const EOT_BACKSTOP_MS = 1000;
const MAX_BACKLOG_SAMPLES = 16_000 * 5;
/** Voice heard after a speculation started that drops it: the VAD's minimum speech. */
const SPEC_DROP_VOICE_MS = 250;

const normalise = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

export class VoiceSocket {
  readonly session: SocketSession;
  private asr: AsrStream | null = null;
  private vad: VoiceActivity | null = null;
  private vadModel: SileroVad | null = null;
  private ready = false;
  private muted = false;
  private finals: string[] = [];
  private partial = "";
  private captionShown = false;
  /** Speech was heard since the last turn: words alone (noise, a stray recognition) take no turn. */
  private heardSpeech = false;
  /** The wall-clock backstop of a pending end of turn (audio time decides while audio flows). */
  private eotTimer: ReturnType<typeof setTimeout> | null = null;
  /** Where the voice ended and when the turn is due, in audio time. */
  private readonly clock = new TurnEndClock();
  /** The speculative turn in flight (at most one): the words it answers and its gate. */
  private spec: { message: string; gate: ConfirmGate; voicedMs: number } | null = null;
  /** Words taken into a turn from a partial: the recogniser's late final for them is dropped. */
  private consumed = "";
  private backlog = 0;
  private warnedOdd = false;
  private turnActive = false;
  private ending = false;
  private held: { text: string; until: number } | null = null;
  private lastUserText = "";
  language: Language = "en";
  voice: string | undefined;
  /** The provider of `voice` (the studio's pick); undefined: the caller's engine. */
  voiceProvider: string | undefined;
  private offNotice: () => void = () => {};
  private readonly pause: PauseState;
  private turnSeq = 0;
  private bargeIns = 0;
  /** Barge-in in two steps: hold the avatar at the first voice, then interrupt or resume. */
  private readonly barge: BargeInController;

  constructor(
    private readonly conn: SocketConn,
    private readonly d: VoiceSocketDeps,
    private readonly live: LiveSession,
  ) {
    const policy = { ...d.policy, maxSeconds: maxLengthFrom(conn.query, d.policy.maxSeconds) };
    // The mic socket drives the voice session: its windows and a revocation end the live session.
    const binding = { current: () => (live.isClosed ? null : live), expire: d.sessions.expire.bind(d.sessions), revoked: () => d.disconnect() };
    this.session = new SocketSession(conn, d.auth, policy, () => this.teardown(), binding);
    this.pause = new PauseState(d.pauseMaxSeconds, (reason) =>
      conn.send({ type: "action", name: "pause_conversation", label: ACTION_LABELS.pause_conversation, paused: false, reason }),
    );
    const hold = { speaking: () => live.speaking, hold: () => (live.holdSpeech(), this.clearTimers()), release: () => this.releaseHeld(), bargeIn: () => (this.bargeIn(), this.vad?.speaking || this.scheduleEndOfTurn()) };
    this.barge = new BargeInController(hold, d.bargePause ?? true);
  }

  /** Attaches recognition; `ready` is the only proof the session works. */
  async start(): Promise<void> {
    try {
      this.vadModel = await this.d.loadVad();
      this.vad = new VoiceActivity(this.vadModel, { probabilities: true, minSilenceMs: VAD_MIN_SILENCE_MS });
    } catch (err) {
      return this.refuse(`The box could not set the session up: ${(err as Error).message}`, 4006);
    }
    try {
      await this.attachAsr();
    } catch (err) {
      return this.refuse(`Speech recognition would not start: ${(err as Error).message}`, 4005);
    }
    if (this.conn.closed) return this.teardown();
    this.ready = true;
    this.session.start();
    // A window that ran out is reported (4007/4008); any other end (/disconnect, a new /connect) is a plain 1000.
    void this.live.closedPromise.then(() => (this.live.expiry ? this.session.expired(this.live.expiry) : this.conn.close(1000, "the live session ended")));
    const subject = this.conn.principal.subject;
    const route = await this.d.accounts?.route({ subject }).catch(() => null);
    this.conn.send({ type: "ready", sample_rate: 16000, voice_origin: route?.origin ?? "box" });
    if (this.d.accounts) {
      this.offNotice = this.d.accounts.onNotice(subject, (notice) => this.conn.send({ type: "voice_notice", notice }));
      if (route?.notice) this.conn.send({ type: "voice_notice", notice: route.notice });
    }
  }

  /** The voice asked for; the face on screen names its own when neither this nor the settings do. */
  private get pick() {
    return { subject: this.conn.principal.subject, voice: this.voice, provider: this.voiceProvider, avatar: this.live.avatar.avatarId };
  }

  refuse(error: string, code: number): void {
    this.session.fatal(error, code);
  }

  private async attachAsr(): Promise<void> {
    const stream = await this.d.asr.start({ sampleRate: 16000, language: this.language, ...(this.d.grammar ? { grammar: this.d.grammar } : {}) });
    this.asr?.close();
    this.asr = stream;
    stream.on("partial", (t) => this.onPartial(t));
    stream.on("final", (t) => this.onFinal(t));
    stream.on("error", (err) => {
      if (stream !== this.asr) return;
      this.conn.send({ type: "error", error: `The transcription stream ended: ${err.message}` });
      this.conn.close(1000, "transcription ended");
    });
  }

  // ---- client messages ----------------------------------------------------------------

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
        return this.configure(m);
      case "mute":
        this.session.activity();
        this.muted = m.muted === true;
        if (this.muted) (this.barge.stop(), this.dropWords());
        return;
      case "auth":
        return void this.session.renew(m.token);
      case "bye":
        this.dropWords();
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

  private configure(m: Record<string, unknown>): void {
    const provider = typeof m.voice_provider === "string" && m.voice_provider ? m.voice_provider : undefined;
    const voice = typeof m.voice === "string" && m.voice ? m.voice : undefined;
    if ((provider || voice) && this.d.accounts) {
      // Checked before it is kept: one provider's voice never goes through another's engine.
      const pick = { subject: this.conn.principal.subject, voice, provider };
      void this.d.accounts.checkPick(pick).then(
        () => ((this.voice = voice), (this.voiceProvider = provider)),
        (err: Error) => this.conn.send({ type: "error", error: err.message }),
      );
    }
    if (typeof m.avatar === "string" && m.avatar) {
      const a = this.d.registry.resolveFor(this.conn.principal.subject, m.avatar);
      if (a) this.live.setAvatar(a);
      else this.conn.send({ type: "error", error: `avatar "${m.avatar.slice(0, 60)}" is not loaded on this box.` });
    }
  }

  private audio(bytes: Uint8Array): void {
    if (!this.ready || this.muted || this.ending) return;
    const { pcm, oddLength } = pcmFromBytes(bytes);
    if (oddLength && !this.warnedOdd) {
      this.warnedOdd = true;
      this.conn.send({ type: "error", error: "Audio frames must be whole 16-bit samples (16 kHz mono s16le); an odd byte was dropped." });
    }
    if (pcm.length === 0) return;
    // A client flooding faster than real time is cut off rather than queued without bound.
    if (this.backlog > MAX_BACKLOG_SAMPLES) return;
    this.backlog += pcm.length;
    this.clock.audio(pcm);
    this.asr?.write(pcm);
    void this.vad!.push(pcm).then((events) => {
      this.backlog -= pcm.length;
      for (const e of events) {
        if (e.type === "probability") {
          this.barge.window(e.probability, this.text());
          if (this.clock.window(e.atMs, e.probability, this.vad?.speaking ?? false)) this.scheduleEndOfTurn();
          else if (this.clock.voiceNow) this.voiceDuringSpec();
          // At the voice's first quiet window the reply may start early (speculate decides).
          else if (this.heardSpeech && this.clock.voiceQuiet) this.speculate();
        } else if (e.type === "speech_start") this.onSpeechStart();
        // The VAD reports where in the audio the voice ended; audio arrives in real time.
        else if (e.type === "speech_end") this.onSpeechEnd(e.atMs);
      }
      if (this.clock.due()) this.endOfTurn();
    });
  }

  // ---- turn-taking ----------------------------------------------------------------------

  private onSpeechStart(): void {
    this.heardSpeech = true;
    this.session.activity();
    this.clearTimers();
    // The person went on speaking: the reply prepared on their earlier words goes without a sound.
    this.dropSpec();
    if (this.barge.speechStarted(this.text())) return; // held: barge-in.ts decides
    // Coughs are shorter than the VAD's minimum speech, so they never get here.
    if (this.turnActive || this.live.speaking) this.bargeIn();
  }

  /** `atMs`: where the VAD says the voice ended (the end of its last voiced window). */
  private onSpeechEnd(atMs: number): void {
    this.clock.speechEnd(atMs);
    this.scheduleEndOfTurn();
  }

  private text(): string {
    return [...this.finals, this.partial].filter(Boolean).join(" ").trim();
  }

  private scheduleEndOfTurn(): void {
    if (this.barge.holding || this.barge.dropsWords) return; // no turn while held, none for a backchannel
    const ep = endpointFor(this.text(), this.vad?.speaking ?? false, { breathy: this.clock.breathy });
    this.conn.send({ type: "endpoint", ...ep });
    if (ep.reason === "speaking") return;
    // wait_ms is the whole silence wanted, counted in audio from where the voice ended.
    this.armBackstop(this.clock.schedule(ep.wait_ms) + EOT_BACKSTOP_MS);
    this.speculate();
  }

  /** Wall clock only for a client that stopped sending audio: while audio flows, audio time decides. */
  private armBackstop(ms: number): void {
    if (this.eotTimer) clearTimeout(this.eotTimer);
    const received = this.clock.receivedMs;
    this.eotTimer = setTimeout(() => (this.clock.receivedMs > received ? this.armBackstop(EOT_BACKSTOP_MS) : this.endOfTurn()), ms);
  }

  /** The words the turn would answer now: held words (skip_turn, a barge-in) join the new ones. */
  private messageFor(text: string): { message: string; held: string } {
    const held = this.held && this.held.until > Date.now() ? this.held.text : "";
    return { message: held ? `${held} ${text}` : text, held };
  }

  /**
   * Starts the reply on the words so far behind a confirmation gate, from the voice's first quiet
   * window (before the VAD ends the stretch), once the words look complete and have settled
   * (speculationReady). Words that changed drop the one in flight; the next starts when they settle.
   */
  private speculate(): void {
    if (!this.d.speculative || this.turnActive || this.ending || this.muted || this.barge.holding || this.barge.dropsWords) return;
    const text = this.text();
    const { message } = this.messageFor(text);
    if (this.spec && normalise(this.spec.message) === normalise(message)) return; // still the words it answers
    this.dropSpec(); // at most one in flight: the words changed
    if (!speculationReady(text, this.clock.voiceQuiet, this.clock.wordsUnchangedMs)) return;
    const gate = new ConfirmGate();
    this.spec = { message, gate, voicedMs: 0 };
    void this.turn(message, gate);
  }

  /**
   * Voice after a speculation started: as long as speech (the VAD's minimum), the person goes on
   * and it is dropped at once (model and voice requests aborted). A shorter sound (the release of
   * a final "t", a click) keeps it: new words or the VAD's speech start would drop it anyway.
   */
  private voiceDuringSpec(): void {
    if (this.spec && (this.spec.voicedMs += WINDOW_MS) >= SPEC_DROP_VOICE_MS) this.dropSpec();
  }

  private dropSpec(): void {
    this.spec?.gate.drop();
    this.spec = null;
  }

  private onPartial(text: string): void {
    if (this.muted || this.ending || this.barge.dropsWords) return;
    if (text !== this.partial) this.clock.wordsChanged();
    this.partial = text;
    if (text) {
      this.captionShown = true;
      this.conn.send({ type: "partial", text: this.text() });
    }
    this.barge.heard(this.text());
    if (!this.heardSpeech) return;
    if (!this.vad?.speaking) this.scheduleEndOfTurn();
    else {
      this.conn.send({ type: "endpoint", ...endpointFor(this.text(), true) });
      this.speculate(); // new words: one prepared on the old ones goes now
    }
  }

  private onFinal(text: string): void {
    if (this.muted || this.ending || this.barge.dropsWords) return;
    const before = this.text();
    this.partial = "";
    if (this.consumed) {
      const late = this.consumed;
      this.consumed = "";
      if (normalise(text) === normalise(late)) return; // already taken from the partial
      if (normalise(text).startsWith(normalise(late))) text = text.trim().slice(late.trim().length).trim();
    }
    if (text) this.finals.push(text);
    this.barge.heard(this.text());
    // The recogniser revised the words during the wait: decide (and speculate) on the new ones.
    if (normalise(this.text()) !== normalise(before) && this.heardSpeech && this.clock.pending && !this.vad?.speaking) {
      this.clock.wordsChanged();
      this.scheduleEndOfTurn();
    }
  }

  /** The silence lasted: the words so far become a turn (or are cleared as not worth one). */
  private endOfTurn(): void {
    if (this.vad?.speaking) return;
    this.clearTimers();
    this.vad?.forgetHistory(); // in a silence: a fresh state for the next words
    const text = this.text();
    // Not waiting for the recogniser: it is told to settle, and its final for these words is dropped.
    if (this.partial) {
      this.consumed = this.partial;
      this.asr?.finalize();
    }
    this.finals = [];
    this.partial = "";
    this.heardSpeech = false;
    const spec = this.spec;
    this.spec = null;
    if (!isRealUtterance(text)) {
      spec?.gate.drop();
      if (this.captionShown) this.conn.send({ type: "caption_clear" });
      this.captionShown = false;
      return;
    }
    this.captionShown = false;
    const { message, held } = this.messageFor(text);
    this.held = null;
    this.conn.send({ type: "final", text, continues: held !== "" });
    if (this.pause.paused) this.pause.end("spoke");
    // Prepared on these very words during the wait: it goes out now (its held frames after `final`).
    if (spec?.gate.pending && normalise(spec.message) === normalise(message)) return spec.gate.confirm();
    spec?.gate.drop();
    void this.turn(message);
  }

  /** A noise or a backchannel: the avatar goes on; its words (if any) are dropped. */
  private releaseHeld(): void {
    this.live.releaseSpeech();
    this.asr?.finalize();
    this.heardSpeech = false;
    this.dropWords();
  }

  private bargeIn(): void {
    this.heardSpeech = true;
    this.bargeIns++;
    this.d.interrupt();
    this.conn.send({ type: "state", speaking: false, bargein: true });
    // The person took the floor back: their last words join what they say next.
    if (this.lastUserText) this.held = { text: this.lastUserText, until: Date.now() + 6_000 };
  }

  private dropWords(): void {
    this.clearTimers();
    this.dropSpec();
    this.finals = [];
    this.partial = "";
    if (this.captionShown) this.conn.send({ type: "caption_clear" });
    this.captionShown = false;
  }

  private clearTimers(): void {
    if (this.eotTimer) clearTimeout(this.eotTimer);
    this.eotTimer = null;
    this.clock.clear();
  }

  // ---- one turn -------------------------------------------------------------------------

  /** One turn; `gate`: a speculative one, whose every frame and effect waits for confirmation. */
  private async turn(message: string, gate: ConfirmGate | null = null): Promise<void> {
    const later = (fn: () => void) => (gate ? gate.hold(fn) : fn());
    const send = (f: Record<string, unknown>) => later(() => this.conn.send(f));
    later(() => {
      this.lastUserText = message;
      this.pause.endByReply();
      this.turnActive = true;
    });
    const correlationId = `voice_${this.conn.id.slice(0, 8)}_${++this.turnSeq}`;
    let firstAudio = false;
    const off = this.live.onSpeech((e) => {
      if (e.utterance.correlationId !== correlationId) return;
      if (e.kind === "start" && !firstAudio) {
        firstAudio = true;
        // A speculative turn speaks only once confirmed: its first audio is at most the wait away.
        // Read now, not at the turn's start: a speculation starts before the VAD has ended the
        // stretch, so the end of this voice was not known then.
        this.conn.send({ type: "metric", first_audio_ms: Math.round(performance.now() - this.clock.lastVoiceAt), spec: gate !== null });
        this.conn.send({ type: "state", speaking: true, bargein: false });
      }
    });
    send({ type: "state", thinking: true });
    try {
      const prepared = await this.d.engine.prepare(this.conn.principal.subject, "live");
      const out = await this.d.engine.run(prepared, {
        subject: this.conn.principal.subject,
        message,
        kind: "live",
        session: this.live,
        voice: this.voice,
        voiceProvider: this.voiceProvider,
        offerCustomTools: true,
        toolOwner: this.conn.id,
        correlationId,
        language: this.language,
        ...(gate ? { gate } : {}),
        emit: (e) => (this.conn.closed ? false : (this.conn.send(e), true)),
        systemTools: { specs: systemToolSpecs(prepared.settings.system_tools), run: (name, args, said) => runSystemTool(this.host(), name, args, said, message) },
      });
      if (out.reply) send({ type: "reply", reply: out.reply, tone: out.tone, avatar: this.live.speakingFace });
    } catch (err) {
      // Barged in before anything was said: the person has the floor, nothing failed. A dropped
      // speculative turn is gone without a trace.
      const code = (err as { code?: string }).code;
      if (code === "interrupted" || code === "speculation_dropped") return;
      const error = err instanceof Error ? err.message : "The turn failed.";
      if (!(err instanceof UpstreamError) && !(err as { status?: number }).status) console.error(JSON.stringify({ level: "error", msg: "voice turn failed", error: String((err as Error)?.stack ?? err) }));
      send({ type: "reply_error", error });
    } finally {
      off();
      later(() => {
        this.turnActive = false;
        this.session.activity();
        this.conn.send({ type: "state", thinking: false });
      });
    }
  }

  private host(): SystemToolHost {
    return {
      language: this.language,
      send: (f) => this.conn.send(f),
      speakLine: async (text, voice) => {
        if (text) {
          const u = await this.d.speaker.utterance(text, isTone(this.live.avatar.tone) ? this.live.avatar.tone : "neutral", { ...this.pick, voice: voice ?? this.voice });
          this.live.say(u);
        }
        const before = this.bargeIns;
        await this.live.quiet();
        return !this.live.isClosed && before === this.bargeIns;
      },
      voiceFor: async (lang) => {
        if (!this.d.accounts) return null;
        const route = await this.d.accounts.route(this.pick);
        const rows = await this.d.accounts.rowsOf(route).catch(() => []);
        const v = voiceForCall(route.provider, rows, lang, route.voice ?? route.engine.defaultVoiceId ?? null);
        return v ? { id: v.id, name: v.name } : null;
      },
      hears: (lang) => this.d.hears(lang),
      switchLanguage: async (lang, voice) => {
        this.language = lang;
        this.voice = voice;
        await this.attachAsr().catch((err) => this.conn.send({ type: "error", error: `Speech recognition could not switch language: ${(err as Error).message}` }));
      },
      holdWords: (text, ms) => (this.held = { text, until: Date.now() + ms }),
      beginPause: () => {
        this.session.activity(); // the idle window counts from when the pause began
        this.pause.begin();
      },
      endCall: async () => {
        this.ending = true;
        this.conn.send({ type: "session_end", reason: "ended_by_persona_request" });
        this.conn.close(1000, "call ended");
        this.d.disconnect();
      },
    };
  }

  teardown(): void {
    this.barge.stop();
    this.offNotice();
    this.clearTimers();
    this.dropSpec();
    this.pause.endByReply();
    this.session.stop();
    this.asr?.close();
    this.asr = null;
    void this.vadModel?.dispose();
    this.vadModel = null;
  }
}
