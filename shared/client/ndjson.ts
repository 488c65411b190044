// Implements: the NDJSON body of `POST /api/chat` ("a frame can be split across reads, so cut lines
// from a buffer"). Bytes are decoded as a stream, so a character split across reads survives too.

export class NdjsonReader {
  private buffer = "";
  private readonly decoder = new TextDecoder();

  /** Feeds one read; answers every whole frame it completed (blank lines are skipped). */
  push(chunk: Uint8Array | string): unknown[] {
    this.buffer += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    const frames: unknown[] = [];
    let nl: number;
    while ((nl = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const frame = parseLine(line);
      if (frame !== undefined) frames.push(frame);
    }
    return frames;
  }

  /** The stream ended: a last frame without its newline still counts. */
  end(): unknown[] {
    this.buffer += this.decoder.decode();
    const rest = this.buffer;
    this.buffer = "";
    const frame = parseLine(rest);
    return frame === undefined ? [] : [frame];
  }
}

function parseLine(line: string): unknown {
  const text = line.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new SyntaxError(`The stream carried a line that is not JSON: ${text.slice(0, 80)}`);
  }
}

/** Every frame of an NDJSON body, in order, however the bytes were cut into reads. */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const ndjson = new NdjsonReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* ndjson.push(value);
    }
    finished = true;
    yield* ndjson.end();
  } finally {
    // A reader that stopped early gives the body back, so the box sees the caller leave.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
