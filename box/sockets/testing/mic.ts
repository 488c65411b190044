// A microphone for voice-socket tests: streams 16 kHz s16le in 20 ms frames at real time,
// speech when some is queued, silence otherwise.
import type { WsClient } from "./ws-client.ts";

export class Mic {
  private queue: Int16Array[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  /** performance.now() when the last queued speech sample was sent. */
  lastSpeechSentAt = 0;
  private next = 0;

  constructor(private readonly ws: WsClient) {}

  start(): void {
    this.next = performance.now();
    this.timer = setInterval(() => this.pump(), 10);
  }

  say(pcm: Int16Array): void {
    for (let i = 0; i < pcm.length; i += 320) this.queue.push(pcm.subarray(i, Math.min(pcm.length, i + 320)));
  }

  /** Resolves when everything queued has been sent. */
  async drained(): Promise<void> {
    while (this.queue.length) await new Promise((r) => setTimeout(r, 10));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private pump(): void {
    while (performance.now() >= this.next) {
      const speech = this.queue.shift();
      const frame = speech ?? new Int16Array(320);
      this.ws.send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
      if (speech && this.queue.length === 0) this.lastSpeechSentAt = performance.now();
      this.next += 20;
    }
  }
}
