// Implements: docs/architecture.md "Mouth shapes": mouth shapes come from the TTS engine's phoneme
// timings when it gives them, else from the audio itself, so hosted voices and uploaded audio
// lip-sync too.
import type { MouthParams } from "../render/frame-params.ts";
import type { Utterance } from "../tts/engine.ts";
import { mouthTrackFromAudio } from "./audio-mouth.ts";
import { mouthTrackFromPhonemes } from "./mouth-track.ts";

export type MouthTrackSource = "phonemes" | "audio";

/** One MouthParams per video frame of the utterance, and which path made them. */
export function mouthTrackForUtterance(
  utterance: Pick<Utterance, "pcm" | "sampleRate" | "phonemes" | "durationMs">,
  fps = 25,
): { track: MouthParams[]; source: MouthTrackSource } {
  if (utterance.phonemes.length > 0) {
    return { track: mouthTrackFromPhonemes(utterance.phonemes, utterance.durationMs, fps), source: "phonemes" };
  }
  return { track: mouthTrackFromAudio(utterance.pcm, utterance.sampleRate, fps), source: "audio" };
}
