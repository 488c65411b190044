// Implements: the server-sent-events framing the OpenAI and Anthropic streams use
// (WHATWG "event stream interpretation"), as a pure parser fed arbitrary chunks.

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** Incremental SSE parser: feed text in any split, get complete messages back. */
export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];
  private id: string | undefined;
  private hasData = false;
  private first = true;
  // A chunk ending in "\r" may be the first half of "\r\n": the next "\n" is then not a new line.
  private skipLf = false;

  feed(chunk: string): SseMessage[] {
    if (this.first && chunk.length > 0) {
      this.first = false;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    if (this.skipLf && chunk.startsWith("\n")) chunk = chunk.slice(1);
    this.skipLf = false;
    this.buffer += chunk;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer.slice(start, i), out);
      if (c === 13) {
        if (i + 1 === this.buffer.length) this.skipLf = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** End of stream: a last message missing its blank line is still delivered (lenient, unlike WHATWG). */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    if (this.buffer.length > 0) this.line(this.buffer, out);
    this.buffer = "";
    this.line("", out);
    return out;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === "") {
      if (this.hasData) {
        const msg: SseMessage = { event: this.event || "message", data: this.data.join("\n") };
        if (this.id !== undefined) msg.id = this.id;
        out.push(msg);
      }
      this.event = "";
      this.data = [];
      this.hasData = false;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      this.data.push(value);
      this.hasData = true;
    } else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
  }
}

/** Reads a byte stream as SSE messages; cancelling iteration cancels the body (closing the socket). */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      yield* parser.feed(decoder.decode(r.value, { stream: true }));
    }
    done = true;
    yield* parser.feed(decoder.decode());
    yield* parser.end();
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
