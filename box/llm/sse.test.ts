import { describe, expect, it } from "vitest";
import { readSse, SseParser } from "./sse.ts";

function feedAll(parts: string[]) {
  const p = new SseParser();
  return [...parts.flatMap((s) => p.feed(s)), ...p.end()];
}

describe("SseParser", () => {
  const wire =
    'event: message_start\ndata: {"a":1}\n\n: keep-alive comment\n\nevent: delta\r\ndata: line one\r\ndata: line two\r\n\r\ndata: [DONE]\n\n';
  const expected = [
    { event: "message_start", data: '{"a":1}' },
    { event: "delta", data: "line one\nline two" },
    { event: "message", data: "[DONE]" },
  ];

  it("parses events, multi-line data, comments and CRLF", () => {
    expect(feedAll([wire])).toEqual(expected);
  });

  it("gives the same messages however the text is split, \\r\\n straddling two reads included", () => {
    for (let size = 1; size <= 7; size++) {
      const parts: string[] = [];
      for (let i = 0; i < wire.length; i += size) parts.push(wire.slice(i, i + size));
      expect(feedAll(parts)).toEqual(expected);
    }
    expect(feedAll(["data: a\r", "\ndata: b\r", "\n\r", "\n"])).toEqual([{ event: "message", data: "a\nb" }]);
  });

  it("strips a BOM and one leading space only, ignores data-less events, keeps ids", () => {
    expect(feedAll(["\ufeffid: 7\ndata:  two spaces\n\nevent: empty\n\n"])).toEqual([{ event: "message", data: " two spaces", id: "7" }]);
  });

  it("delivers a last message that lacks its blank line", () => {
    expect(feedAll(["data: [DONE]"])).toEqual([{ event: "message", data: "[DONE]" }]);
  });

  it("readSse decodes UTF-8 split inside a character", async () => {
    const bytes = new TextEncoder().encode("data: café 🙂\n\n");
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const b of bytes) c.enqueue(new Uint8Array([b]));
        c.close();
      },
    });
    const got = [];
    for await (const m of readSse(body)) got.push(m);
    expect(got).toEqual([{ event: "message", data: "café 🙂" }]);
  });
});
