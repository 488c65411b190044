// Implements: the pose a live session's frame is drawn with (box/render/frame-params.ts): the
// tone's resting expression eased in over about 200 ms, the mouth of the speech timeline, and the
// idle motion (a still face's synthetic blinks, head motion and breathing; a video face's footage
// moves by itself). Kept apart from the render pipeline so what a frame looks like is decided in
// one place, frame by frame, in order.
import type { Tone } from "../../shared/wire/tones.ts";
import type { FrameParams, MouthParams } from "../render/frame-params.ts";
import { restFrame } from "../render/tone-rest.ts";
import type { ResolvedAvatar } from "../avatars/registry.ts";
import { IdleAnimator } from "./idle-animator.ts";
import type { SpeechTimeline } from "./speech-timeline.ts";

const REST_MOUTH: MouthParams = { open: 0, wide: 0, round: 0 };
/** A video face's footage blinks, breathes and moves by itself. */
const FOOTAGE_IDLE = { blink: 0, headX: 0, headY: 0, headRoll: 0, breathe: 0 };
const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

export class FacePose {
  private readonly idle: IdleAnimator;
  private toneState: FrameParams;

  constructor(
    private readonly timeline: SpeechTimeline,
    fps: number,
    tone: Tone,
  ) {
    this.idle = new IdleAnimator({ fps, seed: Date.now() & 0xffff });
    this.toneState = restFrame(tone);
  }

  /** The tone speaking at `frame`; while waiting for a stream, the tone of the one awaited. */
  toneAt(frame: number, avatar: ResolvedAvatar): Tone {
    const s = this.timeline.at(frame) ?? this.timeline.waitingFor ?? this.timeline.starvedAt(frame);
    return s?.tone ?? avatar.tone;
  }

  /** The parameters frame `frame` of `avatar` is drawn with; each call eases the tone one frame further. */
  paramsFor(frame: number, avatar: ResolvedAvatar): FrameParams {
    const s = this.timeline.at(frame);
    const tone: Tone = this.toneAt(frame, avatar);
    const frames = avatar.frames;
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
    const g = avatar.gestureAmplitude ?? 1;
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
