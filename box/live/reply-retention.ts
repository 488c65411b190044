// Retention of generated reply audio (the WAVs POST /api/chat makes for /offer): an age limit
// and a total-size cap per credential subject, oldest first. Pure bookkeeping, no I/O: the audio
// store tells it what is on disk and removes what it names.

export interface ReplyRetentionOptions {
  /** A reply older than this goes; null keeps replies whatever their age. */
  maxAgeSeconds: number | null;
  /** A subject's replies beyond this many bytes go, oldest first (its newest always stays); null: no cap. */
  maxBytesPerSubject: number | null;
}

export interface ReplyEntry {
  name: string;
  subject: string;
  /** WAV plus sidecar. */
  bytes: number;
  /** Written at (ms since the epoch). */
  at: number;
}

export class ReplyRetention {
  /** Each subject's replies, oldest first. */
  private readonly bySubject = new Map<string, ReplyEntry[]>();
  private readonly byName = new Map<string, ReplyEntry>();

  constructor(
    private readonly options: ReplyRetentionOptions,
    private readonly now: () => number = Date.now,
  ) {}

  add(entry: ReplyEntry): void {
    const list = this.bySubject.get(entry.subject) ?? [];
    let i = list.length;
    while (i > 0 && list[i - 1].at > entry.at) i--; // nearly always appended at the end
    list.splice(i, 0, entry);
    this.bySubject.set(entry.subject, list);
    this.byName.set(entry.name, entry);
  }

  expired(name: string): boolean {
    const e = this.byName.get(name);
    return !!e && this.options.maxAgeSeconds !== null && this.now() - e.at > this.options.maxAgeSeconds * 1000;
  }

  /** Forgets and returns the replies to remove: expired ones of every subject, then over-cap ones of `subjects`. */
  sweep(subjects: Iterable<string> = this.bySubject.keys()): string[] {
    const out: string[] = [];
    if (this.options.maxAgeSeconds !== null) {
      const oldest = this.now() - this.options.maxAgeSeconds * 1000;
      // Lists are oldest first, so only their heads need looking at.
      for (const list of this.bySubject.values()) while (list.length && list[0].at < oldest) out.push(list.shift()!.name);
    }
    const cap = this.options.maxBytesPerSubject;
    if (cap !== null) {
      for (const subject of [...subjects]) {
        const list = this.bySubject.get(subject) ?? [];
        let total = list.reduce((n, e) => n + e.bytes, 0);
        while (list.length > 1 && total > cap) {
          const e = list.shift()!;
          total -= e.bytes;
          out.push(e.name);
        }
      }
    }
    for (const name of out) this.byName.delete(name);
    for (const [subject, list] of this.bySubject) if (!list.length) this.bySubject.delete(subject);
    return out;
  }
}
