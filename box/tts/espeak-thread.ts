// Implements: synthesis off the media thread (docs/api-notes.md "Speech off the media clock"): espeak-ng runs
// synchronously (a clause blocks for ~5-10 ms), so on the box it runs in a worker thread with its
// own copy of the engine, and the thread pacing frames and packets only waits for a message.
// Bun only (Node cannot start a TypeScript worker): elsewhere synthesis stays on the caller's thread.
import { Worker } from "node:worker_threads";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import type { SynthesizeOptions, Utterance } from "./engine.ts";
import type { EspeakEngineOptions } from "./espeak-engine.ts";

export type ThreadRequest = { id: number; text: string; options: SynthesizeOptions };
export type ThreadReply =
  | { id: number; utterance: Utterance }
  | { id: number; error: { message: string; status: number; retryable: boolean } }
  | { ready: true; threadId: number }
  | { failed: string };

/** Whether this runtime can run the worker (its source is TypeScript). */
export const canThread = (): boolean => typeof process.versions.bun === "string";

type Pending = { resolve: (u: Utterance) => void; reject: (e: Error) => void };

export class EspeakThread {
  private worker: Worker | null = null;
  private ready: Promise<number> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** The worker's thread id once it answered (0: not started). */
  threadId = 0;

  constructor(private readonly options: EspeakEngineOptions) {}

  /** Starts the worker (and its engine) now, so the first clause does not wait for it. */
  start(): Promise<number> {
    if (this.ready) return this.ready;
    const worker = new Worker(new URL("./espeak-thread-worker.ts", import.meta.url), { workerData: this.options });
    worker.unref();
    this.worker = worker;
    this.ready = new Promise<number>((resolve, reject) => {
      worker.on("message", (m: ThreadReply) => {
        if ("ready" in m) return resolve((this.threadId = m.threadId));
        if ("failed" in m) return reject(new UpstreamError(`espeak-ng: the synthesis thread could not start (${m.failed})`, 503, false));
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if ("utterance" in m) p.resolve(m.utterance);
        else p.reject(new UpstreamError(m.error.message, m.error.status, m.error.retryable));
      });
      // A worker that dies fails what it held; the next clause starts a new one.
      const gone = (why: string) => {
        if (this.worker !== worker) return;
        this.worker = null;
        this.ready = null;
        this.threadId = 0;
        const err = new UpstreamError(`espeak-ng: the synthesis thread stopped (${why})`, 503, true);
        reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      };
      worker.on("error", (e) => gone(e.message));
      worker.on("exit", (code) => gone(`exit ${code}`));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  async synthesize(text: string, options: SynthesizeOptions): Promise<Utterance> {
    await this.start();
    const id = this.nextId++;
    return new Promise<Utterance>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker!.postMessage({ id, text, options } satisfies ThreadRequest);
    });
  }

  close(): void {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    void w?.terminate();
  }
}
