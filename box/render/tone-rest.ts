// Implements: tone variants of an avatar (spec "Avatars": variants per tone). A tone is the
// face's resting expression: frame parameters the idle animator and lip-sync start from.
import { NEUTRAL_FRAME, type FrameParams } from "./frame-params.ts";
import type { Tone } from "../../shared/wire/tones.ts";

/**
 * Expression only (smile, brow, open, wide, round): the idle animator and lip-sync add blinks,
 * head motion, breathing and speech on top of these.
 */
export const TONE_REST: Record<Tone, Partial<FrameParams>> = {
  neutral: {},
  // Strong enough to read at a glance in a small video tile (issue 25 item 3: the earlier,
  // milder values barely changed a face): the corners, the cheeks and lower lids (smile's
  // squint) and the brows all move.
  happy: { smile: 0.9, brow: 0.22 },
  sad: { smile: -0.85, brow: 0.6 },
  surprised: { brow: 1, open: 0.3, round: 0.4 },
  thoughtful: { smile: -0.32, brow: -0.85, round: 0.15 },
  serious: { smile: -0.35, brow: -0.7, wide: 0.15 },
};

/** The full resting frame for a tone. */
export function restFrame(tone: Tone): FrameParams {
  return { ...NEUTRAL_FRAME, ...TONE_REST[tone] };
}
