// Implements: avatar_speech_started / avatar_speech_ended on the control socket — once per
// correlation id: started when its first audio goes out, ended when its last utterance finished
// (or was cut) and nothing more is coming for it.
import type { LiveSession } from "../live/live-session.ts";
import type { SpeechEvent } from "../live/session-types.ts";

export class SpeechTracker {
  /** Ids this socket spoke under whose speech may still start. */
  private readonly owned = new Set<string>();
  private readonly producing = new Set<string>();
  private readonly started = new Set<string>();
  private readonly queued = new Map<string, number>();
  private off: (() => void) | null = null;
  private session: LiveSession | null = null;

  constructor(private readonly send: (type: "avatar_speech_started" | "avatar_speech_ended", correlationId: string) => void) {}

  /** Follows the live session (a new /connect replaces it). */
  follow(session: LiveSession | null): void {
    if (session === this.session) return;
    this.off?.();
    for (const id of [...this.started]) this.finish(id);
    this.owned.clear();
    this.session = session;
    this.off = session ? session.onSpeech((e) => this.onSpeech(e)) : null;
  }

  /** A producer (turn, talk) begins speaking under this id. */
  begin(correlationId: string): void {
    this.owned.add(correlationId);
    this.producing.add(correlationId);
  }

  /** The producer is done; ends the id now if its speech already finished or never started. */
  done(correlationId: string): void {
    this.producing.delete(correlationId);
    if (this.started.has(correlationId) && !this.queued.get(correlationId)) this.finish(correlationId);
  }

  close(): void {
    this.off?.();
    this.off = null;
  }

  private onSpeech(e: SpeechEvent): void {
    const id = e.utterance.correlationId;
    if (!id || !this.owned.has(id)) return;
    if (e.kind === "start") {
      if (!this.started.has(id)) {
        this.started.add(id);
        this.send("avatar_speech_started", id);
      }
      return;
    }
    const more = !e.interrupted && this.session?.timeline.queuedAfter(e.utterance.id, id);
    this.queued.set(id, more ? 1 : 0);
    if (!more && (e.interrupted || !this.producing.has(id))) this.finish(id);
  }

  private finish(id: string): void {
    if (!this.started.delete(id)) return;
    this.owned.delete(id);
    this.queued.delete(id);
    this.send("avatar_speech_ended", id);
  }
}
