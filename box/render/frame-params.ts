// Implements: the renderer's per-frame input (docs/architecture.md "The media path of one live session").
// One set of numbers per video frame (25 fps). Produced by lip-sync (mouth) and the
// idle animator (blink, head, breathing); consumed by the face-warp renderer.

/** Mouth shape for one frame. All values are 0..1 unless noted. */
export interface MouthParams {
  /** Jaw drop / vertical mouth opening. */
  open: number;
  /** Horizontal stretch of the lips (e.g. "ee"). */
  wide: number;
  /** Lip rounding / protrusion (e.g. "oo", "w"). */
  round: number;
}

/** Everything the renderer needs for one frame besides the face itself. */
export interface FrameParams extends MouthParams {
  /** Lip-corner lift, -1 (frown) .. 1 (smile); set per tone. */
  smile: number;
  /** Eyelid closure 0 (open) .. 1 (closed). */
  blink: number;
  /** Eyebrow raise -1 .. 1 (surprise up, sad/thoughtful inner down). */
  brow: number;
  /** Small head motion in pixels of the output frame (x, y) and roll in radians. */
  headX: number;
  headY: number;
  headRoll: number;
  /** Breathing: vertical chest/shoulder lift 0..1 (tiny scale about the chin). */
  breathe: number;
}

export const NEUTRAL_FRAME: FrameParams = {
  open: 0,
  wide: 0,
  round: 0,
  smile: 0,
  blink: 0,
  brow: 0,
  headX: 0,
  headY: 0,
  headRoll: 0,
  breathe: 0,
};

export { TONES, type Tone } from "../../shared/wire/tones.ts";
