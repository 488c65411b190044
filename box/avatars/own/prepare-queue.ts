// Implements: docs/architecture.md "Own faces": preparation runs in a bounded build queue off the request (and
// off the media path): one job at a time, a bounded number waiting, each job keyed by its avatar.
import { log } from "../../../shared/util/log.ts";

export class QueueFull extends Error {}

interface Waiting {
  key: string;
  job: () => Promise<void>;
  done: { resolve: () => void; promise: Promise<void> };
}

export class PrepareQueue {
  private readonly waiting: Waiting[] = [];
  private running: { key: string; promise: Promise<void> } | null = null;

  constructor(readonly capacity = 16) {}

  get size(): number {
    return this.waiting.length + (this.running ? 1 : 0);
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  isRunning(key: string): boolean {
    return this.running?.key === key;
  }

  isWaiting(key: string): boolean {
    return this.waiting.some((w) => w.key === key);
  }

  /** Queues `job`; resolves when it has run (a job's own failure is its job to record). `force`: past the capacity (boot). */
  enqueue(key: string, job: () => Promise<void>, force = false): Promise<void> {
    if (!force && this.waiting.length >= this.capacity)
      throw new QueueFull(`${this.waiting.length} avatars are already waiting to be prepared`);
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.waiting.push({ key, job, done: { resolve, promise } });
    this.pump();
    return promise;
  }

  /** Drops a job that has not started; true when one was dropped. */
  cancel(key: string): boolean {
    const i = this.waiting.findIndex((w) => w.key === key);
    if (i < 0) return false;
    const [w] = this.waiting.splice(i, 1);
    w.done.resolve();
    return true;
  }

  /** Resolves once nothing runs or waits (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running.promise;
  }

  private pump(): void {
    if (this.running) return;
    const next = this.waiting.shift();
    if (!next) return;
    // Yield first, so the request that queued the job answers before the job takes the CPU.
    const promise = new Promise<void>((r) => setTimeout(r, 0))
      .then(next.job)
      .catch((err) => log.error("avatar preparation job threw", { key: next.key, error: String((err as Error)?.stack ?? err) }))
      .finally(() => {
        this.running = null;
        next.done.resolve();
        this.pump();
      });
    this.running = { key: next.key, promise };
  }
}
