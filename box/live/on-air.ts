// Implements: which utterance of a live session is on air, and its speech events: `start` and `end`
// at the frame the utterance is actually sent (not when it was queued), so the sockets' `speaking`
// events and a turn's pacing follow what the person hears. A listener that throws never reaches the
// media clock.
import type { Scheduled } from "./speech-timeline.ts";
import type { SpeechEvent } from "./session-types.ts";

export class OnAir {
  private readonly listeners = new Set<(e: SpeechEvent) => void>();
  /** The utterance whose audio is going out (null: silence, or nothing started yet). */
  playing: Scheduled | null = null;

  listen(listener: (e: SpeechEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Frame `i` goes out carrying `now`'s audio: the one playing ends (cut when it had frames left
   * and nothing follows) and `now` starts. Answers whether what is on air changed.
   */
  track(i: number, now: Scheduled | null): boolean {
    if (now?.id === this.playing?.id) return false;
    if (this.playing) this.emit({ kind: "end", utterance: this.playing, interrupted: this.playing.endFrame > i && !now });
    this.playing = now;
    if (now) this.emit({ kind: "start", utterance: now, interrupted: false });
    return true;
  }

  /** The utterance playing ends now, as cut (held when interrupted, or the session ended). */
  cut(): void {
    if (this.playing) this.emit({ kind: "end", utterance: this.playing, interrupted: true });
    this.playing = null;
  }

  /** The session ended: nobody is told anything more. */
  clear(): void {
    this.listeners.clear();
  }

  private emit(e: SpeechEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {}
    }
  }
}
