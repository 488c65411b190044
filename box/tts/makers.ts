// The clients of the self-hosted and hosted voice providers, by provider id (box/tts/wire.ts).
import { CartesiaEngine } from "./cartesia/cartesia-engine.ts";
import { ChatterboxEngine } from "./chatterbox/chatterbox-engine.ts";
import { ElevenLabsEngine } from "./elevenlabs/elevenlabs-engine.ts";
import type { EngineMaker } from "./wire.ts";

export const VOICE_MAKERS: Partial<Record<"chatterbox" | "elevenlabs" | "cartesia", EngineMaker>> = {
  chatterbox: (o) => new ChatterboxEngine(o),
  elevenlabs: (o) => new ElevenLabsEngine(o),
  cartesia: (o) => new CartesiaEngine(o),
};
