// The NDJSON body of a streamed turn: frames written before the response exists are held, the
// first frame (or the turn's end) decides whether the answer is a stream or a plain status.
export class NdjsonStream {
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private readonly held: string[] = [];
  private ended = false;
  /** True once the reader went away: frames can no longer be delivered. */
  cancelled = false;
  private firstFrame: () => void = () => {};
  readonly wroteFirst = new Promise<void>((r) => (this.firstFrame = r));
  written = 0;

  write(frame: object): boolean {
    if (this.cancelled || this.ended) return false;
    const line = JSON.stringify(frame) + "\n";
    if (this.controller) this.controller.enqueue(new TextEncoder().encode(line));
    else this.held.push(line);
    this.written++;
    this.firstFrame();
    return true;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.firstFrame();
    try {
      this.controller?.close();
    } catch {}
  }

  response(): Response {
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.controller = c;
        for (const line of this.held.splice(0)) c.enqueue(new TextEncoder().encode(line));
        if (this.ended) c.close();
      },
      cancel: () => {
        this.cancelled = true;
      },
    });
    return new Response(body, {
      headers: { "content-type": "application/x-ndjson", "cache-control": "no-store", "x-accel-buffering": "no" },
    });
  }
}

/** `Accept: application/x-ndjson` anywhere among the values (case-insensitive), or `stream: true`. */
export function wantsStream(accept: string | null, body: Record<string, unknown>): boolean {
  return (
    body.stream === true ||
    (accept ?? "")
      .toLowerCase()
      .split(",")
      .some((v) => v.split(";")[0].trim() === "application/x-ndjson")
  );
}
