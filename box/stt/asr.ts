// Implements: the speech recognition seam behind "Voice socket `WSS /api/voice/ws`" (16 kHz mono
// s16le in; `partial` and `final` out) and the 4005 refusal of "WebSocket refusals" (an engine
// that will not start throws UpstreamError 503).
import { UpstreamError } from "../../shared/errors/api-error.ts";

export const ASR_SAMPLE_RATE = 16_000;

export interface AsrStartOptions {
  sampleRate: 16000;
  /** A language tag such as "en" or "en-US"; engines refuse (503) a language they cannot do. */
  language?: string;
  /** Expected sentences: engines that support grammars recognise only these; others ignore it. */
  grammar?: string[];
}

export interface AsrEvents {
  /** The utterance in progress, whole (settled and tentative words); may be revised. */
  partial: (text: string) => void;
  /** The utterance settled (engine endpoint, or finish()); never revised. */
  final: (text: string) => void;
  /** The stream failed after it started (connection lost, engine fault); it is closed. */
  error: (err: UpstreamError) => void;
}

/**
 * One recognition stream. Usage either way:
 * - long-lived (one per socket): write() frames, show `partial`, take each `final` as an utterance;
 * - per utterance: write() its audio, then `await finish()` for its text.
 * Events are delivered asynchronously; none arrive after finish() resolves or close().
 */
export interface AsrStream {
  /** 16 kHz mono s16. Copied or sent at once (the caller may reuse the array); ignored after finish()/close(). */
  write(pcm: Int16Array): void;
  on<E extends keyof AsrEvents>(event: E, listener: AsrEvents[E]): this;
  off<E extends keyof AsrEvents>(event: E, listener: AsrEvents[E]): this;
  /** End of audio: settles the last utterance (emitting its `final`), closes, and resolves with
   *  every final of the stream joined by spaces. Rejects with UpstreamError when the engine fails. */
  finish(): Promise<string>;
  /** Abandons the stream at once; pending text is dropped. Idempotent. */
  close(): void;
  /** The caller decided the utterance ended (its own end-of-turn): settle it now and keep listening. */
  finalize(): void;
}

export interface AsrEngine {
  /** "pocketsphinx", "deepgram", ... */
  readonly id: string;
  /** Throws UpstreamError (503: will not start; 502: upstream failed, maybe retryable). */
  start(options: AsrStartOptions): Promise<AsrStream>;
}

export const asrUnavailable = (engine: string, reason: string, retryable = false) =>
  new UpstreamError(`${engine}: ${reason}`, 503, retryable);

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Wraps anything thrown by an engine as UpstreamError (kept as is when it already is one). */
export function asUpstream(engine: string, err: unknown, status = 502, retryable = true): UpstreamError {
  return err instanceof UpstreamError ? err : new UpstreamError(`${engine}: ${errorText(err)}`, status, retryable);
}

/** Collapses whitespace and joins non-empty parts with one space. */
export function joinText(parts: readonly string[]): string {
  return parts
    .map((p) => p.trim().replace(/\s+/g, " "))
    .filter(Boolean)
    .join(" ");
}

type Listeners = { [E in keyof AsrEvents]: Set<AsrEvents[E]> };

/** Shared emitter and transcript bookkeeping; engines call partial()/settle()/fail(). */
export abstract class AsrStreamBase implements AsrStream {
  private readonly listeners: Listeners = { partial: new Set(), final: new Set(), error: new Set() };
  private readonly finals: string[] = [];
  private lastPartial = "";
  /** "open" until finish() or close() or a failure. */
  protected state: "open" | "finishing" | "closed" = "open";

  abstract write(pcm: Int16Array): void;
  abstract finish(): Promise<string>;
  abstract close(): void;
  abstract finalize(): void;

  on<E extends keyof AsrEvents>(event: E, listener: AsrEvents[E]): this {
    (this.listeners[event] as Set<AsrEvents[E]>).add(listener);
    return this;
  }

  off<E extends keyof AsrEvents>(event: E, listener: AsrEvents[E]): this {
    (this.listeners[event] as Set<AsrEvents[E]>).delete(listener);
    return this;
  }

  /** Every final so far, joined. */
  protected transcript(): string {
    return joinText(this.finals);
  }

  /** Emits `partial` when the text changed and is not empty. */
  protected partial(text: string): void {
    const clean = joinText([text]);
    if (this.state === "closed" || !clean || clean === this.lastPartial) return;
    this.lastPartial = clean;
    this.emit("partial", clean);
  }

  /** Emits `final` for a settled utterance (empty ones are dropped). */
  protected settle(text: string): void {
    const clean = joinText([text]);
    this.lastPartial = "";
    if (this.state === "closed" || !clean) return;
    this.finals.push(clean);
    this.emit("final", clean);
  }

  /** Emits `error` once (only while open: a caller awaiting finish() gets the rejection instead). */
  protected fail(err: UpstreamError): void {
    if (this.state === "open") this.emit("error", err);
    this.state = "closed";
  }

  private emit<E extends keyof AsrEvents>(event: E, ...args: Parameters<AsrEvents[E]>): void {
    for (const listener of [...this.listeners[event]]) {
      try {
        (listener as (...a: Parameters<AsrEvents[E]>) => void)(...args);
      } catch {
        // A listener's fault must not break recognition for the others.
      }
    }
  }
}
