// Implements: text → utterance for the live session (POST /api/talk and the turn engine):
// synthesis, 48 kHz audio for Opus, and the mouth track (phoneme timings, else the audio).
import { ApiError, UpstreamError } from "../../shared/errors/api-error.ts";
import type { Tone } from "../../shared/wire/tones.ts";
import type { Utterance, VoiceEngine } from "../voice/engine.ts";
import { to48k, resample } from "../voice/resample.ts";
import { mouthTrackForUtterance } from "../lipsync/lip-sync.ts";
import { mouthTrackFromAudio } from "../lipsync/audio-mouth.ts";
import type { UtteranceInput } from "./speech-timeline.ts";
import { isOutage, type CallOutcome } from "../readiness/upstream-health.ts";

export class Speaker {
  constructor(
    private readonly engine: VoiceEngine | null,
    private readonly fps = 25,
    /** The engine's health (readiness `tts_state`): every synthesis passes here, so it reports here. */
    private readonly health: CallOutcome | null = null,
  ) {}

  get available(): boolean {
    return this.engine !== null && this.engine.ready;
  }

  /** The engine's own output (its rate, its timings); 503 when no engine can speak, 502 when it fails. */
  async synthesize(text: string, voice?: string): Promise<Utterance> {
    if (!this.engine || !this.engine.ready) throw new ApiError(503, "tts_not_configured", "Text to speech is not configured on this box.");
    try {
      const u = await this.engine.synthesize(text, { voice });
      this.health?.succeeded();
      return u;
    } catch (err) {
      if (isOutage(err)) this.health?.failed(err);
      if (err instanceof UpstreamError && err.status === 404) throw new ApiError(400, "unknown_voice", err.message);
      throw new ApiError(502, "tts_failed", `The voice engine failed: ${(err as Error).message}`);
    }
  }

  /** Speaks one clause for the live stream: 48 kHz audio and one mouth shape per frame. */
  async utterance(text: string, tone: Tone, voice?: string): Promise<UtteranceInput> {
    const u = await this.synthesize(text, voice);
    const { track } = mouthTrackForUtterance(u, this.fps);
    return { text, tone, pcm48k: u.sampleRate === 48000 ? u.pcm : to48k(u.pcm, u.sampleRate), mouth: track };
  }
}

/** An uploaded clip (no timings): the mouth comes from the audio alone. */
export function clipUtterance(pcm: Int16Array, sampleRate: number, tone: Tone, text: string, fps = 25): UtteranceInput {
  const pcm48k = sampleRate === 48000 ? pcm : resample(pcm, sampleRate, 48000);
  return { text, tone, pcm48k, mouth: mouthTrackFromAudio(pcm, sampleRate, fps) };
}
