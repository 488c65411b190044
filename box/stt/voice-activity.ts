// Implements: voice activity on the microphone stream of "Voice socket `WSS /api/voice/ws`":
// the thin adapter joining VadFramer → SileroVad → VadSegmenter (one per socket).
import type { SileroVad } from "./silero-vad.ts";
import { VadFramer, VadSegmenter, type VadEvent, type VadSegmenterOptions } from "./vad-segmenter.ts";

export class VoiceActivity {
  private readonly framer = new VadFramer();
  private readonly segmenter: VadSegmenter;
  private queue: Promise<unknown> = Promise.resolve();

  /** `vad` must not be shared with another stream (its state is the stream's history). */
  constructor(
    private readonly vad: SileroVad,
    options: VadSegmenterOptions = {},
  ) {
    this.segmenter = new VadSegmenter(options);
  }

  /** True between `speech_start` and `speech_end`. */
  get speaking(): boolean {
    return this.segmenter.speaking;
  }

  /** Feeds 16 kHz mono s16 of any length; resolves with the events of the windows it completed.
   *  Calls are serialised, so chunks may be pushed without awaiting. */
  push(pcm: Int16Array): Promise<VadEvent[]> {
    const windows = this.framer.push(pcm); // framed now: the caller may reuse `pcm`
    const run = this.queue.then(async () => {
      const events: VadEvent[] = [];
      for (const window of windows) events.push(...this.segmenter.push(await this.vad.process(window)));
      return events;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** End of audio: closes an open segment. */
  flush(): Promise<VadEvent[]> {
    const run = this.queue.then(() => this.segmenter.flush());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Forgets the model's recurrent state but keeps the audio time: called in a silence (the end of a
   * turn), so the probabilities of a long stream do not drift (Silero's state carries minutes of
   * history; after about a minute of turns its tail after speech stayed higher, which delayed every
   * end of speech and end of turn by 100-250 ms).
   */
  forgetHistory(): void {
    this.queue = this.queue.then(() => this.vad.reset());
  }

  /** Starts over at time 0 with fresh model state. */
  reset(): void {
    this.framer.reset();
    this.queue = this.queue.then(() => {
      this.segmenter.reset();
      this.vad.reset();
    });
  }
}
