// Implements: text → utterance for the live session (POST /api/talk and the turn engine):
// synthesis, 48 kHz audio for Opus, and the mouth track (phoneme timings, else the audio). An
// engine that streams is heard as it arrives (`live`): the clause grows on the timeline.
import { ApiError, UpstreamError } from "../../shared/errors/api-error.ts";
import type { Tone } from "../../shared/wire/tones.ts";
import type { Utterance, UtteranceChunk } from "../tts/engine.ts";
import type { VoiceAccounts, VoicePick, VoiceRoute } from "../tts/accounts.ts";
import { accountProblem } from "../tts/account-health.ts";
import { to48kInSlices, resample } from "../tts/resample.ts";
import { mouthTrackForUtterance } from "../lipsync/lip-sync.ts";
import type { WordPhonemizer } from "../lipsync/word-visemes.ts";
import { mouthTrackFromAudio } from "../lipsync/audio-mouth.ts";
import type { UtteranceInput } from "./speech-timeline.ts";
import { GrowingUtterance } from "./growing-utterance.ts";
import { isOutage, type CallOutcome } from "../readiness/upstream-health.ts";
import { log } from "../../shared/util/log.ts";

export class Speaker {
  constructor(
    /** Who speaks each call (the caller's pick, their portal choice, the box's engine). */
    private readonly accounts: VoiceAccounts | null,
    private readonly fps = 25,
    /** The boot engine's health (readiness `tts_state`): its syntheses report here. */
    private readonly health: CallOutcome | null = null,
    /** Maps a hosted voice's word timings to phonemes (measured closer than lip-sync from audio). */
    private readonly phonemizer: WordPhonemizer | null = null,
  ) {}

  get available(): boolean {
    return this.accounts?.bootEngine.ready ?? false;
  }

  /**
   * The engine's own output (its rate, its timings) and who spoke it; 503 when no engine can
   * speak, 502 when it fails, 400 `unknown_voice` for a voice the engine does not have. A person's
   * own account that fails is replaced by the box's engine for this call and after (the notice).
   */
  async synthesize(text: string, pick: VoicePick): Promise<Utterance & { route: VoiceRoute }> {
    if (!this.accounts || !this.available) throw new ApiError(503, "tts_not_configured", "Text to speech is not configured on this box.");
    let route = await this.accounts.route(pick);
    try {
      const u = await this.speak(route, text);
      this.accounts.succeeded(route, pick.subject);
      return { ...u, route };
    } catch (err) {
      if (route.origin !== "user" || !accountProblem(err)) throw this.refusal(err, route);
      route = this.accounts.failed(route, err, pick.subject);
      try {
        return { ...(await this.speak(route, text)), route };
      } catch (again) {
        throw this.refusal(again, route);
      }
    }
  }

  /** Speaks one clause for the live stream: 48 kHz audio and one mouth shape per frame. */
  async utterance(text: string, tone: Tone, pick: VoicePick): Promise<UtteranceInput> {
    const said = await this.synthesize(text, pick);
    const u = this.phonemizer ? await this.phonemizer.withPhonemes(said) : said;
    const { track } = mouthTrackForUtterance(u, this.fps);
    return { text, tone, pcm48k: await to48kInSlices(u.pcm, u.sampleRate), mouth: track };
  }

  /**
   * One clause for the live stream, as the engine sends it: resolves at its first audio (a refusal
   * before any sound rejects as `synthesize` does) and goes on growing in the background. A stream
   * cut later keeps what arrived (`failure` says why); aborting `signal` stops the provider's
   * request at once. Engines that do not stream answer the whole clause, already done.
   */
  async live(text: string, tone: Tone, pick: VoicePick, signal?: AbortSignal): Promise<GrowingUtterance> {
    if (!this.accounts || !this.available) throw new ApiError(503, "tts_not_configured", "Text to speech is not configured on this box.");
    let route = await this.accounts.route(pick);
    if (!route.engine.stream) return GrowingUtterance.whole(await this.utterance(text, tone, pick), this.fps);
    try {
      const g = await this.open(route, text, tone, signal);
      this.accounts.succeeded(route, pick.subject);
      return g;
    } catch (err) {
      if (signal?.aborted || route.origin !== "user" || !accountProblem(err)) throw this.refusal(err, route);
      route = this.accounts.failed(route, err, pick.subject);
      try {
        if (!route.engine.stream) return GrowingUtterance.whole(await this.wholeOn(route, text, tone), this.fps);
        return await this.open(route, text, tone, signal);
      } catch (again) {
        throw this.refusal(again, route);
      }
    }
  }

  private async wholeOn(route: VoiceRoute, text: string, tone: Tone): Promise<UtteranceInput> {
    const said = await this.speak(route, text);
    const u = this.phonemizer ? await this.phonemizer.withPhonemes(said) : said;
    return { text, tone, pcm48k: await to48kInSlices(u.pcm, u.sampleRate), mouth: mouthTrackForUtterance(u, this.fps).track };
  }

  /** Starts the stream and waits for its first audio; the rest is read in the background. */
  private async open(route: VoiceRoute, text: string, tone: Tone, signal?: AbortSignal): Promise<GrowingUtterance> {
    const onBoot = route.origin === "box" && route.engine === this.accounts!.bootEngine;
    const chunks = route.engine.stream!(text, { voice: route.voice, signal })[Symbol.asyncIterator]();
    const g = new GrowingUtterance(text, tone, this.fps);
    try {
      for (;;) {
        const next = await chunks.next();
        if (next.done) throw new Error("the stream ended without any audio");
        await this.take(g, next.value);
        if (g.audible) break;
      }
      if (onBoot) this.health?.succeeded();
    } catch (err) {
      if (onBoot && isOutage(err)) this.health?.failed(err);
      await chunks.return?.().catch(() => undefined);
      throw err;
    }
    void this.drain(g, chunks, route, signal);
    return g;
  }

  private async drain(g: GrowingUtterance, chunks: AsyncIterator<UtteranceChunk>, route: VoiceRoute, signal?: AbortSignal): Promise<void> {
    try {
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        await this.take(g, next.value);
      }
      g.end();
    } catch (err) {
      const why = err instanceof Error ? err : new Error(String(err));
      // Interrupted: silent by design. Otherwise the clause ends where the stream broke.
      if (!signal?.aborted) log.error("voice stream cut", { engine: route.label, error: why.message });
      g.end(why);
    }
  }

  /** A chunk into the clause: its word timings become phonemes (when they can) for the mouth. */
  private async take(g: GrowingUtterance, c: UtteranceChunk): Promise<void> {
    let phonemes = c.phonemes ?? [];
    if (phonemes.length === 0 && c.words?.length && this.phonemizer)
      phonemes = (await this.phonemizer.fromWords(c.words).catch(() => null)) ?? [];
    g.push(c.pcm, c.sampleRate, phonemes);
  }

  private async speak(route: VoiceRoute, text: string): Promise<Utterance> {
    const onBoot = route.origin === "box" && route.engine === this.accounts!.bootEngine;
    try {
      const u = await route.engine.synthesize(text, { voice: route.voice });
      if (onBoot) this.health?.succeeded();
      return u;
    } catch (err) {
      if (onBoot && isOutage(err)) this.health?.failed(err);
      throw err;
    }
  }

  private refusal(err: unknown, route: VoiceRoute): ApiError {
    if (err instanceof ApiError) return err;
    if (err instanceof UpstreamError && err.status === 404) return new ApiError(400, "unknown_voice", err.message);
    return new ApiError(502, "tts_failed", `The voice engine (${route.label}) failed: ${(err as Error).message}`);
  }
}

/** An uploaded clip (no timings): the mouth comes from the audio alone. */
export function clipUtterance(pcm: Int16Array, sampleRate: number, tone: Tone, text: string, fps = 25): UtteranceInput {
  const pcm48k = sampleRate === 48000 ? pcm : resample(pcm, sampleRate, 48000);
  return { text, tone, pcm48k, mouth: mouthTrackFromAudio(pcm, sampleRate, fps) };
}
