// Implements: the live session of a box (docs/architecture.md "The media path of one live session"): one peer, one frame clock,
// one utterance queue. Frames are rendered a few ahead of the clock (the renderer is async);
// audio of frame i and the mouth of frame i come from the same speech timeline. A video face plays
// its own footage (frame i on loop frame pingPong(i), per tone its take's loop when it has one)
// with no synthetic idle on top: only the tone's resting expression and speech move the mouth.
import type { Tone } from "../../shared/wire/tones.ts";
import { variantId } from "../../shared/wire/tones.ts";
import type { FaceRenderer } from "../render/face-renderer.ts";
import type { FrameParams, MouthParams } from "../render/frame-params.ts";
import { restFrame } from "../render/tone-rest.ts";
import { createAnswerPeer } from "../media/peer.ts";
import { MediaSession, type SourceFrame } from "../media/media-session.ts";
import type { FfmpegEncoder } from "../media/encoder.ts";
import type { ResolvedAvatar } from "../avatars/registry.ts";
import { IdleAnimator } from "./idle-animator.ts";
import { LoopPlayer, blendInto } from "./loop-player.ts";
import { SpeechTimeline, type Scheduled, type UtteranceInput } from "./speech-timeline.ts";
import type { GrowingUtterance } from "./growing-utterance.ts";
import type { ClientContext } from "../../shared/wire/client-context.ts";
import type { SessionExpiry } from "./session-end.ts";
import { Perception } from "../perception/perception.ts";
import { photoLandmarker } from "../faces/prepare-photo.ts";
import { log } from "../../shared/util/log.ts";

export interface LiveSessionOptions {
  renderer: FaceRenderer;
  fps?: number;
  loopbackOnly: boolean;
  ffmpegPath?: string;
  /** Frames rendered ahead of the clock. */
  lookahead?: number;
  /** A started video encoder for a new session (the box's warm spare). */
  videoEncoder?: () => Promise<FfmpegEncoder>;
  /** Told about every frame handed to the media clock (benchmarks of onsets and pacing). */
  onFrame?: (report: FrameReport) => void;
  /** BOX_PERCEPTION: receive and look at the client's camera or screen track (default off here; the box turns it on). */
  perception?: boolean;
}

/** What frame `frame` carried when the media clock took it. */
export interface FrameReport {
  frame: number;
  /** performance.now() when the clock asked for it. */
  at: number;
  /** The utterance whose audio it carries (null: silence). */
  utterance: number | null;
  /** Whether its picture was rendered for this frame (false: the previous picture repeated). */
  fresh: boolean;
  /** The mouth opening the picture shown was rendered with. */
  open: number;
  /** Peak |sample| of its audio. */
  peak: number;
}

export type SpeechEvent = { kind: "start" | "end"; utterance: Scheduled; interrupted: boolean };

const REST_MOUTH: MouthParams = { open: 0, wide: 0, round: 0 };
/** An utterance whose first picture is not drawn in time starts up to this many frames later. */
const MAX_ONSET_WAIT = 3;
/** A video face's footage blinks, breathes and moves by itself. */
const FOOTAGE_IDLE = { blink: 0, headX: 0, headY: 0, headRoll: 0, breathe: 0 };
const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

export class LiveSession {
  readonly timeline = new SpeechTimeline();
  private readonly idle: IdleAnimator;
  private readonly lookahead: number;
  private readonly rendered = new Map<number, Uint8Array>();
  /** The mouth opening each render buffer was last drawn with (kept only for `onFrame` reports). */
  private readonly drawnOpen = new WeakMap<Uint8Array, number>();
  private readonly pool: Uint8Array[] = [];
  private readonly silence: Int16Array;
  private readonly listeners = new Set<(e: SpeechEvent) => void>();
  private media: MediaSession | null = null;
  private emitted = -1;
  private renderNext = 0;
  private generation = 0;
  private pumping = false;
  private lastShown: Uint8Array;
  /** Whether lastShown is one of our render buffers (never a face's own still). */
  private lastOwned = false;
  /** The audio handed out for the frame being sent; its second 20 ms chunk is not sent yet. */
  private lastPcm: Int16Array;
  private toneState: FrameParams;
  private playing: Scheduled | null = null;
  /** The utterance whose start waited for its picture, and for how many frames. */
  private onsetWait = { id: 0, frames: 0 };
  /** A video face's loops (held in memory while it is on screen). */
  private readonly loops = new LoopPlayer();
  /** The loop being left, rendered during a fade. */
  private fadeBuf: Uint8Array | null = null;
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
    this.idle = new IdleAnimator({ fps, seed: Date.now() & 0xffff });
    this.lookahead = options.lookahead ?? 3;
    this.silence = new Int16Array(48000 / fps);
    this.lastShown = avatar.face.i420;
    this.lastPcm = this.silence;
    this.toneState = restFrame(avatar.tone);
  }

  /** Answers the offer and starts media once the client connects. Throws ApiError on a bad SDP. */
  static async open(offer: unknown, avatar: ResolvedAvatar, clientContext: ClientContext, options: LiveSessionOptions) {
    const session = new LiveSession(avatar, clientContext, options);
    const peer = await createAnswerPeer(offer, { loopbackOnly: options.loopbackOnly, receiveClientVideo: options.perception ?? false });
    if (peer.clientVideo) {
      // Its own ffmpeg child, apart from the avatar's encoder: a bad camera never slows the avatar.
      session.perception = new Perception({ ffmpegPath: options.ffmpegPath, landmarker: photoLandmarker });
      session.perception.attach(peer.clientVideo);
    }
    try {
      await session.loops.hold(avatar.frames); // a video's loop is in memory before its first frame
      session.pump(); // the first frames are ready before the client connects
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
    session.pump();
    return { session, frame: (i) => session.frameAt(i) };
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get speaking(): boolean {
    return this.timeline.paused || this.playing !== null || this.timeline.endFrame > this.emitted + 1;
  }

  /** The variant on screen now (tone of the utterance playing, else the session's). */
  get speakingFace(): string {
    return variantId(this.avatar.avatarId, this.playing?.tone ?? this.avatar.tone);
  }

  get counters() {
    return this.media?.counters ?? null;
  }

  /** The session's video encoder process (Opus is encoded in the box). */
  get encoderPid(): number | null {
    return this.media?.encoderPid ?? null;
  }

  onSpeech(listener: (e: SpeechEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether utterance `id` is still queued or playing (false once done, cut or dropped). */
  isPending(id: number): boolean {
    return !this.closed && (this.playing?.id === id || this.timeline.pendingAfter(id, this.emitted));
  }

  /** Switches the face (or its tone variant) from the next frames on. */
  setAvatar(avatar: ResolvedAvatar): void {
    if (avatar.variant === this.avatar.variant) return;
    this.avatar = avatar;
    this.invalidateFrom(this.emitted + 1);
    // Another video's loop: its still plays until the frames are read, then the loop.
    if (!this.loops.holds(avatar.frames))
      void this.loops.hold(avatar.frames).then(() => !this.closed && this.avatar === avatar && this.invalidateFrom(this.emitted + 1));
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
    if (s.startFrame < this.renderNext) this.invalidateFrom(s.startFrame);
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
    if (s.startFrame < this.renderNext) this.invalidateFrom(s.startFrame);
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
      this.invalidateFrom(next);
    } else if (from < this.renderNext) this.invalidateFrom(from);
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
    this.invalidateFrom(at);
    return true;
  }

  /** Resumes held speech at the next frame from where it paused (no word lost or repeated). */
  releaseSpeech(): void {
    if (this.closed || !this.timeline.held) return;
    const at = this.emitted + 1;
    this.timeline.release(at);
    this.invalidateFrom(at);
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
    if (wasHeld && this.playing) {
      this.emit({ kind: "end", utterance: this.playing, interrupted: true });
      this.playing = null;
    }
    if (cut.length) {
      // Silence the rest of the frame on air too: its later audio chunk has not left yet.
      if (this.lastPcm !== this.silence) this.lastPcm.fill(0);
      this.invalidateFrom(at);
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
    if (this.playing) this.emit({ kind: "end", utterance: this.playing, interrupted: true });
    this.playing = null;
    this.loops.letGo();
    this.rendered.clear();
    this.listeners.clear();
    this.onClose();
  }

  private emit(e: SpeechEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {}
    }
  }

  private invalidateFrom(frame: number): void {
    this.generation++;
    for (const k of this.rendered.keys()) if (k >= frame) this.recycle(k);
    this.renderNext = Math.max(frame, this.emitted + 1);
    this.pump();
  }

  private recycle(frame: number): void {
    const buf = this.rendered.get(frame);
    this.rendered.delete(frame);
    if (buf && buf !== this.lastShown) this.pool.push(buf);
  }

  /** Called by the media clock for every frame, in order. Must not block. */
  private frameAt(i: number): SourceFrame {
    this.emitted = i;
    const pic = this.rendered.get(i);
    for (const k of this.rendered.keys()) if (k < i) this.recycle(k);
    if (pic) {
      if (this.lastOwned && this.lastShown !== pic) this.pool.push(this.lastShown);
      this.lastShown = pic;
      this.lastOwned = true;
      this.rendered.delete(i);
    }
    // Speech starting on a frame whose picture is not drawn yet waits a frame (silent, the last
    // picture held), so its first sound goes out with its mouth already moving.
    if (!pic && !this.timeline.paused) this.waitForOnsetPicture(i);
    // A stream behind the clock: the avatar waits here (silent, at rest) until its next frame arrives.
    const starved = this.timeline.paused ? null : this.timeline.starvedAt(i);
    if (starved) this.timeline.stall(i, starved);
    // Held or waiting: the utterance playing stays the one playing (no end, no new start).
    if (!this.timeline.paused) this.track(i);
    const pcm = this.timeline.at(i) ? this.timeline.audioAt(i) : this.silence;
    this.lastPcm = pcm;
    this.pump();
    if (this.options.onFrame) this.report(i, pic !== undefined, pcm);
    return { i420: this.lastShown, pcm48k: pcm };
  }

  private waitForOnsetPicture(i: number): void {
    const s = this.timeline.at(i);
    if (!s || s.startFrame !== i) return;
    if (this.onsetWait.id !== s.id) this.onsetWait = { id: s.id, frames: 0 };
    if (this.onsetWait.frames >= MAX_ONSET_WAIT) return;
    this.onsetWait.frames++;
    this.timeline.postpone(i);
    this.invalidateFrom(i + 1);
  }

  private report(i: number, fresh: boolean, pcm: Int16Array): void {
    let peak = 0;
    for (let k = 0; k < pcm.length; k++) peak = Math.max(peak, Math.abs(pcm[k]));
    const open = this.drawnOpen.get(this.lastShown) ?? 0;
    this.options.onFrame!({ frame: i, at: performance.now(), utterance: this.timeline.at(i)?.id ?? null, fresh, open, peak });
  }

  /** Speech start/end events at the frame the utterance is actually sent. */
  private track(i: number): void {
    const now = this.timeline.at(i);
    if (now?.id === this.playing?.id) return;
    if (this.playing) this.emit({ kind: "end", utterance: this.playing, interrupted: this.playing.endFrame > i && !now });
    this.playing = now;
    if (now) this.emit({ kind: "start", utterance: now, interrupted: false });
    this.timeline.prune(i - 1);
  }

  private pump(): void {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    void this.renderAhead().finally(() => (this.pumping = false));
  }

  private async renderAhead(): Promise<void> {
    while (!this.closed && this.renderNext <= this.emitted + this.lookahead + 1) {
      // Behind the clock (a busy machine): frames already sent are not worth rendering; go on
      // from the next one due, so a video keeps playing at its pace, dropping frames, not stalling.
      if (this.renderNext <= this.emitted) this.renderNext = this.emitted + 1;
      const frame = this.renderNext++;
      const gen = this.generation;
      const buf = this.pool.pop() ?? new Uint8Array(this.avatar.face.i420.length);
      try {
        await this.renderFrame(frame, buf);
      } catch (err) {
        this.pool.push(buf);
        log.error("render failed", { error: (err as Error).message });
        return;
      }
      if (gen !== this.generation || frame <= this.emitted) this.pool.push(buf);
      else this.rendered.set(frame, buf);
    }
  }

  /**
   * Frame `frame` into `buf`: the face's still with its idle, or a video's loop frame (the loop of
   * the tone speaking then), faded over from the previous loop for a few frames after a change.
   */
  private async renderFrame(frame: number, buf: Uint8Array): Promise<void> {
    const { renderer } = this.options;
    const params = this.paramsFor(frame);
    if (this.options.onFrame) this.drawnOpen.set(buf, params.open);
    const frames = this.avatar.frames;
    if (!frames) {
      await renderer.render(this.avatar.face, params, buf);
      return;
    }
    const faces = this.loops.faces(frame, frames, this.toneAt(frame));
    await renderer.render(faces.face, params, buf);
    if (faces.from) {
      const other = (this.fadeBuf ??= new Uint8Array(buf.length));
      await renderer.render(faces.from, params, other);
      blendInto(buf, other, faces.weight);
    }
  }

  /** The tone speaking at `frame`; while waiting for a stream, the tone of the one awaited. */
  private toneAt(frame: number): Tone {
    const s = this.timeline.at(frame) ?? this.timeline.waitingFor ?? this.timeline.starvedAt(frame);
    return s?.tone ?? this.avatar.tone;
  }

  private paramsFor(frame: number): FrameParams {
    const s = this.timeline.at(frame);
    const tone: Tone = this.toneAt(frame);
    const frames = this.avatar.frames;
    // A tone filmed in its own take already wears its expression.
    const target = restFrame(frames?.takes[tone] ? "neutral" : tone);
    const k = 0.18; // about 200 ms to settle into a new tone's resting expression
    const t = this.toneState;
    this.toneState = {
      ...t,
      smile: lerp(t.smile, target.smile, k),
      brow: lerp(t.brow, target.brow, k),
      open: lerp(t.open, target.open, k),
      wide: lerp(t.wide, target.wide, k),
      round: lerp(t.round, target.round, k),
    };
    const mouth = s ? (this.timeline.mouthAt(frame) ?? REST_MOUTH) : null;
    const idle = frames ? FOOTAGE_IDLE : this.idle.params(frame);
    // An uploaded face's `gesture_amplitude` scales its head motion (1: the stock faces'; 0: still).
    const g = this.avatar.gestureAmplitude ?? 1;
    return {
      ...this.toneState,
      ...(mouth ? { open: mouth.open, wide: mouth.wide, round: mouth.round } : {}),
      blink: idle.blink,
      headX: idle.headX * g,
      headY: idle.headY * g,
      headRoll: idle.headRoll * g,
      breathe: idle.breathe,
    };
  }
}
