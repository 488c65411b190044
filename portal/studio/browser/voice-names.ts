// The voice engines' display names: one table for every studio page (live page, Voices page), so
// an engine is called the same everywhere. The box's catalogue labels say the same words
// (box/tts/wire.ts); an engine this table does not know keeps the label the box gave it.
export const ENGINE_NAMES: Readonly<Record<string, string>> = {
  espeak: "espeak-ng (built in)",
  chatterbox: "Chatterbox (self-hosted)",
  elevenlabs: "ElevenLabs",
  cartesia: "Cartesia",
};

/** The name of engine `id`; `boxLabel` (the catalogue's) for one not in the table. */
export function engineName(id: string, boxLabel?: string): string {
  return ENGINE_NAMES[id] ?? boxLabel ?? id;
}
