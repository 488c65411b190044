// Implements: text → utterance for the live session (POST /api/talk and the turn engine):
// synthesis, 48 kHz audio for Opus, and the mouth track (phoneme timings, else the audio).
import { ApiError, UpstreamError } from "../../shared/errors/api-error.ts";
import type { Tone } from "../../shared/wire/tones.ts";
import type { VoiceEngine } from "../voice/engine.ts";
import { to48k, resample } from "../voice/resample.ts";
import { mouthTrackForUtterance } from "../lipsync/lip-sync.ts";
import { mouthTrackFromAudio } from "../lipsync/audio-mouth.ts";
import type { UtteranceInput } from "./speech-timeline.ts";

export class Speaker {
  constructor(
    private readonly engine: VoiceEngine | null,
    private readonly fps = 25,
  ) {}

  get available(): boolean {
    return this.engine !== null && this.engine.ready;
  }

  /** Speaks one clause; 503 when no engine can speak, 502 when the engine fails. */
  async utterance(text: string, tone: Tone, voice?: string): Promise<UtteranceInput> {
    if (!this.engine || !this.engine.ready) throw new ApiError(503, "tts_not_configured", "Text to speech is not configured on this box.");
    let u;
    try {
      u = await this.engine.synthesize(text, { voice });
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) throw new ApiError(400, "unknown_voice", err.message);
      throw new ApiError(502, "tts_failed", `The voice engine failed: ${(err as Error).message}`);
    }
    const { track } = mouthTrackForUtterance(u, this.fps);
    return { text, tone, pcm48k: u.sampleRate === 48000 ? u.pcm : to48k(u.pcm, u.sampleRate), mouth: track };
  }
}

/** An uploaded clip (no timings): the mouth comes from the audio alone. */
export function clipUtterance(pcm: Int16Array, sampleRate: number, tone: Tone, text: string, fps = 25): UtteranceInput {
  const pcm48k = sampleRate === 48000 ? pcm : resample(pcm, sampleRate, 48000);
  return { text, tone, pcm48k, mouth: mouthTrackFromAudio(pcm, sampleRate, fps) };
}
