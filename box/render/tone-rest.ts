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
  happy: { smile: 0.6, brow: 0.12 },
  sad: { smile: -0.55, brow: 0.45 },
  surprised: { brow: 0.9, open: 0.22, round: 0.35 },
  thoughtful: { smile: -0.2, brow: -0.55, round: 0.12 },
  serious: { smile: -0.18, brow: -0.4, wide: 0.12 },
};

/** The full resting frame for a tone. */
export function restFrame(tone: Tone): FrameParams {
  return { ...NEUTRAL_FRAME, ...TONE_REST[tone] };
}
