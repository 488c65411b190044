import { describe, expect, it } from "vitest";
import { VoiceProviderError } from "../engine.ts";
import { parseTimestampLine, PcmDecoder, WordTimer, type CharacterAlignment } from "./elevenlabs-timings.ts";

const align = (chars: string, start: number, step = 0.05): CharacterAlignment => ({
  characters: Array.from(chars),
  character_start_times_seconds: Array.from(chars, (_, i) => start + i * step),
  character_end_times_seconds: Array.from(chars, (_, i) => start + (i + 1) * step),
});

describe("parseTimestampLine", () => {
  it("reads audio_base64 and alignment, normalized_alignment when alignment is null", () => {
    const a = align("Hi", 0);
    const line = parseTimestampLine(
      JSON.stringify({ audio_base64: Buffer.from([1, 0, 2, 0]).toString("base64"), alignment: null, normalized_alignment: a }),
    );
    expect(Array.from(line.audio)).toEqual([1, 0, 2, 0]);
    expect(line.alignment).toEqual(a);
    const empty = parseTimestampLine('{"audio_base64":""}');
    expect(empty.audio.length).toBe(0);
    expect(empty.alignment).toBeNull();
  });

  it.each([
    ["not JSON", "{oops", /not JSON/],
    ["an array", "[1]", /not a JSON object/],
    ["no audio", '{"alignment":null}', /no audio_base64/],
    ["audio not base64", '{"audio_base64":"@@@"}', /not base64/],
    [
      "uneven alignment",
      '{"audio_base64":"","alignment":{"characters":["a"],"character_start_times_seconds":[],"character_end_times_seconds":[0.1]}}',
      /equal length/,
    ],
  ])("refuses %s", (_what, line, message) => {
    let err: unknown;
    try {
      parseTimestampLine(line);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VoiceProviderError);
    expect(err).toMatchObject({ failure: "refused", status: 502, retryable: false, message: expect.stringMatching(message) });
  });
});

describe("PcmDecoder", () => {
  it("decodes s16le and carries a split sample", () => {
    const d = new PcmDecoder();
    expect(Array.from(d.push(Uint8Array.from([0x01, 0x00, 0xff])))).toEqual([1]);
    expect(Array.from(d.push(Uint8Array.from([0xff])))).toEqual([-1]);
    expect(Array.from(d.push(new Uint8Array(0)))).toEqual([]);
    expect(Array.from(d.push(Uint8Array.from([0x00, 0x80, 0xff, 0x7f])))).toEqual([-32768, 32767]);
    expect(d.samples).toBe(4);
  });
});

describe("WordTimer", () => {
  it("builds words from runs of non-space characters across lines", () => {
    const t = new WordTimer();
    expect(t.push(align("Hel", 0))).toEqual([]);
    expect(t.push(align("lo w", 0.15))).toEqual([{ text: "Hello", startMs: 0, endMs: 250 }]);
    expect(t.push(align("orld!  ", 0.35))).toEqual([{ text: "world!", startMs: 300, endMs: 600 }]);
    expect(t.finish()).toEqual([]);
    expect(t.endMs).toBe(700);
  });

  it("gives the last word at finish and skips empty characters", () => {
    const t = new WordTimer();
    t.push({ characters: ["a", "", "b"], character_start_times_seconds: [0, 0.1, 0.1], character_end_times_seconds: [0.1, 0.1, 0.2] });
    expect(t.finish()).toEqual([{ text: "ab", startMs: 0, endMs: 200 }]);
  });

  it("shifts times that restart on a later line", () => {
    const t = new WordTimer();
    t.push(align("ab ", 0));
    expect(t.push(align("cd ", 0))).toEqual([{ text: "cd", startMs: 150, endMs: 250 }]);
  });
});
