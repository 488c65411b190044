// Implements: the rendered-picture side of a live session (docs/architecture.md "The media path of
// one live session"): frames are drawn a few ahead of the media clock (the renderer is async) into
// pooled buffers, thrown away and drawn again from a frame on when the schedule changes there, and
// handed to the clock in order; an utterance whose first picture is not drawn in time starts a
// frame later (up to MAX_ONSET_WAIT), so its first sound goes out with its mouth already moving.
// A video face's frames come from its loops (LoopPlayer), faded over for a few frames on a change.
import type { FaceRenderer } from "../render/face-renderer.ts";
import type { ResolvedAvatar } from "../avatars/registry.ts";
import { LoopPlayer, blendInto } from "./loop-player.ts";
import type { SpeechTimeline } from "./speech-timeline.ts";
import type { FacePose } from "./face-pose.ts";
import { log } from "../../shared/util/log.ts";

/** An utterance whose first picture is not drawn in time starts up to this many frames later. */
const MAX_ONSET_WAIT = 3;

export interface PicturePipelineDeps {
  renderer: FaceRenderer;
  /** Frames rendered ahead of the clock. */
  lookahead: number;
  timeline: SpeechTimeline;
  pose: FacePose;
  /** The face on screen now (it changes with the session's avatar). */
  avatar: () => ResolvedAvatar;
  /** The last frame the media clock took (-1 before the first). */
  emitted: () => number;
  /** Whether the session ended: nothing more is drawn. */
  closed: () => boolean;
  /** Keep the mouth opening each buffer was drawn with (only `onFrame` reports read it). */
  trackOpen: boolean;
}

export class PicturePipeline {
  /** A video face's loops (held in memory while it is on screen). */
  readonly loops = new LoopPlayer();
  private readonly rendered = new Map<number, Uint8Array>();
  /** The mouth opening each render buffer was last drawn with (kept only for `onFrame` reports). */
  private readonly drawnOpen = new WeakMap<Uint8Array, number>();
  private readonly pool: Uint8Array[] = [];
  private renderNext = 0;
  private generation = 0;
  private pumping = false;
  private lastShown: Uint8Array;
  /** Whether lastShown is one of our render buffers (never a face's own still). */
  private lastOwned = false;
  /** The utterance whose start waited for its picture, and for how many frames. */
  private onsetWait = { id: 0, frames: 0 };
  /** The loop being left, rendered during a fade. */
  private fadeBuf: Uint8Array | null = null;

  constructor(private readonly deps: PicturePipelineDeps) {
    this.lastShown = deps.avatar().face.i420;
  }

  /** The picture on screen: the last one handed to the clock (at first the face's own still). */
  get shown(): Uint8Array {
    return this.lastShown;
  }

  /** The mouth opening the picture on screen was drawn with (0 unless `trackOpen`). */
  get shownOpen(): number {
    return this.drawnOpen.get(this.lastShown) ?? 0;
  }

  /** Drops every picture drawn for `frame` and later and draws them again. */
  invalidateFrom(frame: number): void {
    this.generation++;
    for (const k of this.rendered.keys()) if (k >= frame) this.recycle(k);
    this.renderNext = Math.max(frame, this.deps.emitted() + 1);
    this.pump();
  }

  /** Draws again from `frame` when that frame was already drawn or is being drawn. */
  redrawIfDrawn(frame: number): void {
    if (frame < this.renderNext) this.invalidateFrom(frame);
  }

  /**
   * The clock took frame `i`: its picture, when drawn, becomes the one on screen (else the previous
   * one repeats). Answers whether it was drawn for this frame.
   */
  take(i: number): boolean {
    const pic = this.rendered.get(i);
    for (const k of this.rendered.keys()) if (k < i) this.recycle(k);
    if (pic) {
      if (this.lastOwned && this.lastShown !== pic) this.pool.push(this.lastShown);
      this.lastShown = pic;
      this.lastOwned = true;
      this.rendered.delete(i);
    }
    return pic !== undefined;
  }

  /**
   * Frame `i` went out without its own picture: speech starting on it waits a frame (silent, the
   * last picture held), so its first sound goes out with its mouth already moving.
   */
  waitForOnset(i: number): void {
    const { timeline } = this.deps;
    const s = timeline.at(i);
    if (!s || s.startFrame !== i) return;
    if (this.onsetWait.id !== s.id) this.onsetWait = { id: s.id, frames: 0 };
    if (this.onsetWait.frames >= MAX_ONSET_WAIT) return;
    this.onsetWait.frames++;
    timeline.postpone(i);
    this.invalidateFrom(i + 1);
  }

  /** Draws ahead of the clock, unless a drawing run is going on already. */
  pump(): void {
    if (this.pumping || this.deps.closed()) return;
    this.pumping = true;
    void this.renderAhead().finally(() => (this.pumping = false));
  }

  /** The session ended: its loops and pictures are let go. */
  release(): void {
    this.loops.letGo();
    this.rendered.clear();
  }

  private recycle(frame: number): void {
    const buf = this.rendered.get(frame);
    this.rendered.delete(frame);
    if (buf && buf !== this.lastShown) this.pool.push(buf);
  }

  private async renderAhead(): Promise<void> {
    const { deps } = this;
    while (!deps.closed() && this.renderNext <= deps.emitted() + deps.lookahead + 1) {
      // Behind the clock (a busy machine): frames already sent are not worth rendering; go on
      // from the next one due, so a video keeps playing at its pace, dropping frames, not stalling.
      if (this.renderNext <= deps.emitted()) this.renderNext = deps.emitted() + 1;
      const frame = this.renderNext++;
      const gen = this.generation;
      const buf = this.pool.pop() ?? new Uint8Array(deps.avatar().face.i420.length);
      try {
        await this.renderFrame(frame, buf);
      } catch (err) {
        this.pool.push(buf);
        log.error("render failed", { error: (err as Error).message });
        return;
      }
      if (gen !== this.generation || frame <= deps.emitted()) this.pool.push(buf);
      else this.rendered.set(frame, buf);
    }
  }

  /**
   * Frame `frame` into `buf`: the face's still with its idle, or a video's loop frame (the loop of
   * the tone speaking then), faded over from the previous loop for a few frames after a change.
   */
  private async renderFrame(frame: number, buf: Uint8Array): Promise<void> {
    const { renderer, pose } = this.deps;
    const avatar = this.deps.avatar();
    const params = pose.paramsFor(frame, avatar);
    if (this.deps.trackOpen) this.drawnOpen.set(buf, params.open);
    const frames = avatar.frames;
    if (!frames) {
      await renderer.render(avatar.face, params, buf);
      return;
    }
    const faces = this.loops.faces(frame, frames, pose.toneAt(frame, avatar));
    await renderer.render(faces.face, params, buf);
    if (faces.from) {
      const other = (this.fadeBuf ??= new Uint8Array(buf.length));
      await renderer.render(faces.from, params, other);
      blendInto(buf, other, faces.weight);
    }
  }
}
