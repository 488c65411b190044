// Implements: the live session of a box (docs/architecture.md "The media path of one live session"): one peer, one frame clock,
// one utterance queue. Frames are rendered a few ahead of the clock (the renderer is async);
// audio of frame i and the mouth of frame i come from the same speech timeline. A video face plays
// its own footage (frame i on loop frame pingPong(i), per tone its take's loop when it has one)
// with no synthetic idle on top: only the tone's resting expression and speech move the mouth.
// The pictures are drawn by picture-pipeline.ts with the pose of face-pose.ts, the client is
// answered by session-peer.ts and the speech events come from on-air.ts; this file keeps the
// session's life, its media clock and its speech queue.
import { variantId } from "../../shared/wire/tones.ts";
import { MediaSession, type SourceFrame } from "../media/media-session.ts";
import type { ResolvedAvatar } from "../avatars/registry.ts";
import { FacePose } from "./face-pose.ts";
import { PicturePipeline } from "./picture-pipeline.ts";
import { OnAir } from "./on-air.ts";
import { SpeechTimeline, type Scheduled, type UtteranceInput } from "./speech-timeline.ts";
import type { GrowingUtterance } from "./growing-utterance.ts";
import type { ClientContext } from "../../shared/wire/client-context.ts";
import type { LiveSessionOptions, SpeechEvent } from "./session-types.ts";
import type { SessionExpiry } from "./session-end.ts";
import type { Perception } from "../perception/perception.ts";
import { answerClient } from "./session-peer.ts";
import { log } from "../../shared/util/log.ts";

export class LiveSession {
  readonly timeline = new SpeechTimeline();
  /** The pictures drawn ahead of the clock, and the one on screen. */
  private readonly pictures: PicturePipeline;
  private readonly silence: Int16Array;
  /** The utterance on air and its start/end events. */
  private readonly onAir = new OnAir();
  private media: MediaSession | null = null;
  private emitted = -1;
  /** The audio handed out for the frame being sent; its second 20 ms chunk is not sent yet. */
  private lastPcm: Int16Array;
  private closed = false;
  private onClose: () => void = () => {};
  readonly closedPromise = new Promise<void>((r) => (this.onClose = r));
  /** When /connect opened it, and the last thing that counted as activity (ms since the epoch). */
  readonly startedAt = Date.now();
  private activeAt = this.startedAt;
  /** Interrupts so far: a producer still synthesising (a talk) stops queueing when this moves. */
  interruptions = 0;
  /** Aborted by the next interrupt (or the end): a voice stream started now stops with it. */
  private interrupting = new AbortController();
  /** Set when an idle window or a ceiling ended the session (sockets report it); null otherwise. */
  expiry: SessionExpiry | null = null;
  /** What the box sees of the person (their camera or screen); null when no track was offered or perception is off. */
  perception: Perception | null = null;

  private constructor(
    public avatar: ResolvedAvatar,
    readonly clientContext: ClientContext,
    private readonly options: LiveSessionOptions,
  ) {
    const fps = options.fps ?? 25;
    this.silence = new Int16Array(48000 / fps);
    this.lastPcm = this.silence;
    this.pictures = new PicturePipeline({
      renderer: options.renderer,
      lookahead: options.lookahead ?? 3,
      timeline: this.timeline,
      pose: new FacePose(this.timeline, fps, avatar.tone),
      avatar: () => this.avatar,
      emitted: () => this.emitted,
      closed: () => this.closed,
      trackOpen: options.onFrame !== undefined,
    });
  }

  /** Answers the offer and starts media once the client connects. Throws ApiError on a bad SDP. */
  static async open(offer: unknown, avatar: ResolvedAvatar, clientContext: ClientContext, options: LiveSessionOptions) {
    const session = new LiveSession(avatar, clientContext, options);
    const { peer, perception } = await answerClient(offer, options);
    session.perception = perception;
    try {
      await session.pictures.loops.hold(avatar.frames); // a video's loop is in memory before its first frame
      session.pictures.pump(); // the first frames are ready before the client connects
      session.media = await MediaSession.start(peer, (i) => session.frameAt(i), {
        width: options.renderer.width,
        height: options.renderer.height,
        fps: options.fps,
        ffmpegPath: options.ffmpegPath,
        videoEncoder: options.videoEncoder,
        onSourceError: (err) => log.error("frame source failed", { error: err.message }),
        // The client went away (ICE or DTLS failed, or it closed): end the session.
        onEnded: () => session.close(),
      });
    } catch (err) {
      peer.close();
      session.close();
      throw err;
    }
    session.media.started.catch(() => session.close());
    return { session, answer: peer.answer };
  }

  /**
   * A session with no peer whose frames the caller asks for in order, as the media clock does
   * (tests and benchmarks of the schedule: the frames are the ones a client would be sent).
   */
  static detached(
    avatar: ResolvedAvatar,
    clientContext: ClientContext,
    options: LiveSessionOptions,
  ): { session: LiveSession; frame: (i: number) => SourceFrame } {
    const session = new LiveSession(avatar, clientContext, options);
    session.pictures.pump();
    return { session, frame: (i) => session.frameAt(i) };
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get speaking(): boolean {
    return this.timeline.paused || this.onAir.playing !== null || this.timeline.endFrame > this.emitted + 1;
  }

  /** The variant on screen now (tone of the utterance playing, else the session's). */
  get speakingFace(): string {
    return variantId(this.avatar.avatarId, this.onAir.playing?.tone ?? this.avatar.tone);
  }

  get counters() {
    return this.media?.counters ?? null;
  }

  /** The session's video encoder process (Opus is encoded in the box). */
  get encoderPid(): number | null {
    return this.media?.encoderPid ?? null;
  }

  onSpeech(listener: (e: SpeechEvent) => void): () => void {
    return this.onAir.listen(listener);
  }

  /** Whether utterance `id` is still queued or playing (false once done, cut or dropped). */
  isPending(id: number): boolean {
    return !this.closed && (this.onAir.playing?.id === id || this.timeline.pendingAfter(id, this.emitted));
  }

  /** Switches the face (or its tone variant) from the next frames on. */
  setAvatar(avatar: ResolvedAvatar): void {
    if (avatar.variant === this.avatar.variant) return;
    this.avatar = avatar;
    this.pictures.invalidateFrom(this.emitted + 1);
    // Another video's loop: its still plays until the frames are read, then the loop.
    const { loops } = this.pictures;
    if (!loops.holds(avatar.frames))
      void loops.hold(avatar.frames).then(() => !this.closed && this.avatar === avatar && this.pictures.invalidateFrom(this.emitted + 1));
  }

  /** Resolves when nothing is queued or playing (or the session closed), or after `timeoutMs`. */
  async quiet(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && this.speaking && Date.now() < deadline) await new Promise((r) => setTimeout(r, 40));
  }

  /** Something happened on the session (a turn, speech heard, a client message). */
  touch(): void {
    this.activeAt = Date.now();
  }

  /** Activity for the idle window: the avatar speaking counts, so a long reply never idles out. */
  get lastActivity(): number {
    return this.speaking ? Date.now() : this.activeAt;
  }

  /** Queues an utterance after whatever is queued; it starts with the next frame at the earliest. */
  say(u: UtteranceInput): Scheduled {
    this.touch();
    const earliest = this.emitted + 1;
    const s = this.timeline.enqueue(u, earliest);
    this.pictures.redrawIfDrawn(s.startFrame);
    return s;
  }

  /** Aborted at the next interrupt or when the session ends: pass it to a voice stream started now. */
  get interruptSignal(): AbortSignal {
    return this.interrupting.signal;
  }

  /**
   * Queues a clause that is still arriving from a streaming voice engine: its first frames play
   * while the rest comes; if the stream falls behind the clock the avatar waits (silent, mouth at
   * rest) and goes on with the very next frame when it arrives.
   */
  sayStream(g: GrowingUtterance, correlationId?: string): Scheduled {
    this.touch();
    const s = this.timeline.enqueue({ ...g.snapshot(), correlationId }, this.emitted + 1, !g.done);
    this.pictures.redrawIfDrawn(s.startFrame);
    if (g.done) return s;
    const off = g.onGrow(() => {
      if (this.closed) return off();
      this.grew(s.id, g);
      if (g.done) off();
    });
    return s;
  }

  private grew(id: number, g: GrowingUtterance): void {
    const from = this.timeline.grow(id, g.snapshot(), g.done);
    if (from === null) return;
    const next = this.emitted + 1;
    if (this.timeline.canResume) {
      this.timeline.resume(next);
      this.pictures.invalidateFrom(next);
    } else this.pictures.redrawIfDrawn(from);
  }

  /**
   * Barge-in step one: speech pauses at the next frame (silence, a resting face); the queue and
   * the utterance playing are kept, so `releaseSpeech` goes on from that frame. False when
   * nothing is speaking (or it is already held).
   */
  holdSpeech(): boolean {
    if (this.closed || this.timeline.held || !this.speaking) return false;
    const at = this.emitted + 1;
    this.timeline.hold(at);
    this.pictures.invalidateFrom(at);
    return true;
  }

  /** Resumes held speech at the next frame from where it paused (no word lost or repeated). */
  releaseSpeech(): void {
    if (this.closed || !this.timeline.held) return;
    const at = this.emitted + 1;
    this.timeline.release(at);
    this.pictures.invalidateFrom(at);
  }

  get speechHeld(): boolean {
    return this.timeline.held;
  }

  /** Stops speech at the next frame and drops the queue (a held utterance is cut where it paused). */
  interrupt(): Scheduled[] {
    this.interruptions++;
    this.interrupting.abort(new Error("interrupted"));
    this.interrupting = new AbortController();
    const at = this.emitted + 1;
    const wasHeld = this.timeline.paused;
    const cut = this.timeline.interrupt(at);
    // Held, the clock moved on without it: it ends now, as cut.
    if (wasHeld) this.onAir.cut();
    if (cut.length) {
      // Silence the rest of the frame on air too: its later audio chunk has not left yet.
      if (this.lastPcm !== this.silence) this.lastPcm.fill(0);
      this.pictures.invalidateFrom(at);
    }
    return cut;
  }

  /** Ends the session: media stops at once. `expiry` says which window ran out, if one did. */
  close(expiry: SessionExpiry | null = null): void {
    if (this.closed) return;
    this.closed = true;
    this.expiry = expiry;
    this.interrupting.abort(new Error("the live session ended"));
    this.media?.close();
    this.perception?.close(); // the decoder ends and the picture is dropped with the session
    this.onAir.cut();
    this.pictures.release();
    this.onAir.clear();
    this.onClose();
  }

  /** Called by the media clock for every frame, in order. Must not block. */
  private frameAt(i: number): SourceFrame {
    this.emitted = i;
    const fresh = this.pictures.take(i);
    // Speech starting on a frame whose picture is not drawn yet waits a frame (silent, the last
    // picture held), so its first sound goes out with its mouth already moving.
    if (!fresh && !this.timeline.paused) this.pictures.waitForOnset(i);
    // A stream behind the clock: the avatar waits here (silent, at rest) until its next frame arrives.
    const starved = this.timeline.paused ? null : this.timeline.starvedAt(i);
    if (starved) this.timeline.stall(i, starved);
    // Held or waiting: the utterance playing stays the one playing (no end, no new start).
    if (!this.timeline.paused) this.track(i);
    const pcm = this.timeline.at(i) ? this.timeline.audioAt(i) : this.silence;
    this.lastPcm = pcm;
    this.pictures.pump();
    if (this.options.onFrame) this.report(i, fresh, pcm);
    return { i420: this.pictures.shown, pcm48k: pcm };
  }

  private report(i: number, fresh: boolean, pcm: Int16Array): void {
    let peak = 0;
    for (let k = 0; k < pcm.length; k++) peak = Math.max(peak, Math.abs(pcm[k]));
    const open = this.pictures.shownOpen;
    this.options.onFrame!({ frame: i, at: performance.now(), utterance: this.timeline.at(i)?.id ?? null, fresh, open, peak });
  }

  /** Speech start/end events at the frame the utterance is actually sent. */
  private track(i: number): void {
    if (this.onAir.track(i, this.timeline.at(i))) this.timeline.prune(i - 1);
  }
}
