// Implements: docs/architecture.md "The media path of one live session": a warm video encoder for the next
// /connect. Starting ffmpeg and libvpx and encoding the warm-up frame takes 250-340 ms of a 2-core
// machine, longer than ICE and DTLS on a near network; so one encoder is kept started and idle
// (blocked on its stdin: no CPU) and handed to the next session, and a new spare starts once that
// session's first frames are out. Sessions never share one: each gets a process of its own, and a
// session's encoder dies with it.
import { FfmpegEncoder, type EncoderOptions } from "./encoder.ts";
import { log } from "../../shared/util/log.ts";

export type SpareOptions = Omit<EncoderOptions, "onRtp" | "onRestart"> & {
  /** After a take(), the next spare starts this much later (the session's first frames have the CPU first). */
  refillAfterMs?: number;
};

export class EncoderSpare {
  private spare: Promise<FfmpegEncoder> | null = null;
  private refill: NodeJS.Timeout | null = null;
  private closed = false;
  /** Encoders handed out warm, and those started on demand because no spare was ready. */
  readonly counters = { warm: 0, cold: 0 };

  constructor(private readonly options: SpareOptions) {}

  /** Starts a spare now, if there is none. */
  prime(): void {
    if (this.closed || this.spare) return;
    if (this.refill) clearTimeout(this.refill);
    this.refill = null;
    const starting = FfmpegEncoder.start(this.encoderOptions());
    starting.catch((err: Error) => {
      if (this.spare === starting) this.spare = null;
      log.warn("spare encoder did not start", { error: err.message });
    });
    this.spare = starting;
  }

  /** The spare when one started (else a new encoder); the next spare starts `refillAfterMs` later. */
  async take(): Promise<FfmpegEncoder> {
    const spare = this.spare;
    this.spare = null;
    this.scheduleRefill();
    // A spare is only ever closed by close(), which also forgets it; a crashed one restarts itself.
    const ready = spare ? await spare.catch(() => null) : null;
    if (ready) {
      this.counters.warm++;
      return ready;
    }
    this.counters.cold++;
    return FfmpegEncoder.start(this.encoderOptions());
  }

  /** The spare's ffmpeg process id (null when none is running). */
  async sparePid(): Promise<number | null> {
    return (await this.spare?.catch(() => null))?.pid ?? null;
  }

  close(): void {
    this.closed = true;
    if (this.refill) clearTimeout(this.refill);
    this.refill = null;
    void this.spare?.then(
      (e) => e.close(),
      () => {},
    );
    this.spare = null;
  }

  private scheduleRefill(): void {
    if (this.closed || this.refill) return;
    this.refill = setTimeout(() => {
      this.refill = null;
      this.prime();
    }, this.options.refillAfterMs ?? 500);
    this.refill.unref?.();
  }

  private encoderOptions(): EncoderOptions {
    const { refillAfterMs: _, ...encoder } = this.options;
    return encoder;
  }
}
