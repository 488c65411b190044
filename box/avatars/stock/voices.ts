// Implements: the stock faces' own voices (docs/api-notes.md "A voice that fits the face"): each bundled face
// says which voice fits it (gender and language), and names the espeak row that does, so a call
// with no voice chosen anywhere speaks with a voice that matches the face on the screen.
import type { FaceVoice } from "../../tts/face-voice.ts";

/** Keyed by stock face id (looks.ts). espeak ids are rows of box/tts/espeak-voices.ts. */
export const STOCK_VOICES: Readonly<Record<string, FaceVoice>> = {
  // British English, espeak's female variant.
  "stock-ava": { gender: "female", language: "en", espeak: "en+f3" },
  // American English, espeak's own (male) voice.
  "stock-ben": { gender: "male", language: "en", espeak: "en-us" },
  // American English, female: a different accent from Ava so the two stock women differ.
  "stock-mei": { gender: "female", language: "en", espeak: "en-us+f3" },
};

/** The voice that fits a face (an avatar id or a variant `<id>__<tone>`); undefined: no opinion. */
export function stockFaceVoice(avatar: string): FaceVoice | undefined {
  return STOCK_VOICES[avatar.split("__")[0]];
}
