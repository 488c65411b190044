// The NDJSON reader cuts frames from a buffer: any split of the bytes gives the same frames.
import { describe, expect, it } from "vitest";
import { NdjsonReader, readNdjson } from "./ndjson.ts";

const FRAMES = [
  { type: "reply_chunk", text: "Grüße aus Köln — ça va? 👋", tone: "happy" },
  { type: "tool", name: "lookup_order", label: "Checking your order" },
  { type: "reply", reply: "日本語のテキスト", tone: "neutral", tools: [] },
];
const BYTES = new TextEncoder().encode(FRAMES.map((f) => JSON.stringify(f)).join("\r\n") + "\n\n");

/** Cuts bytes into reads of the given sizes, cycling (odd sizes split characters and lines). */
function cut(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0, k = 0; i < bytes.length; k++) {
    const n = sizes[k % sizes.length];
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

describe("NdjsonReader", () => {
  it("gives the same frames however the stream is cut (1-byte, odd and prime sizes)", () => {
    for (const sizes of [[1], [2], [3, 7], [5, 1, 13], [BYTES.length]]) {
      const r = new NdjsonReader();
      const got = cut(BYTES, sizes).flatMap((c) => r.push(c));
      expect([...got, ...r.end()]).toEqual(FRAMES);
    }
  });

  it("holds a partial line until its newline, and counts a last line without one", () => {
    const r = new NdjsonReader();
    expect(r.push('{"type":"a"}\n{"type":')).toEqual([{ type: "a" }]);
    expect(r.push('"b"}')).toEqual([]);
    expect(r.end()).toEqual([{ type: "b" }]);
  });

  it("refuses a line that is not JSON, naming it", () => {
    expect(() => new NdjsonReader().push("<html>\n")).toThrow(/not JSON: <html>/);
  });

  it("readNdjson reads a ReadableStream fed in odd-sized chunks", async () => {
    const chunks = cut(BYTES, [4, 9, 1]);
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        await new Promise((r) => setTimeout(r, 0));
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    });
    const got: unknown[] = [];
    for await (const f of readNdjson(body)) got.push(f);
    expect(got).toEqual(FRAMES);
  });
});
