import { describe, expect, it } from "vitest";
import { pcmFromBytes, VadFramer, VadSegmenter, WINDOW_MS, type VadEvent } from "./vad-segmenter.ts";

/** Runs window probabilities through a segmenter; returns the segment events (no telemetry). */
function run(probabilities: number[], options = {}): VadEvent[] {
  const seg = new VadSegmenter({ probabilities: false, ...options });
  return [...probabilities.flatMap((p) => seg.push(p)), ...seg.flush()];
}

const windows = (ms: number, p: number) => Array<number>(Math.round(ms / WINDOW_MS)).fill(p);

describe("VadSegmenter", () => {
  it("reports a segment from its first voiced window to its last", () => {
    const events = run([...windows(320, 0.01), ...windows(640, 0.95), ...windows(800, 0.02)]);
    expect(events).toEqual([
      { type: "speech_start", atMs: 320 },
      { type: "speech_end", atMs: 960, durationMs: 640 },
    ]);
  });

  it("ignores voice shorter than the minimum speech (a cough or click)", () => {
    expect(run([...windows(320, 0), ...windows(160, 0.99), ...windows(960, 0)])).toEqual([]);
  });

  it("merges gaps shorter than the minimum silence into one segment", () => {
    const p = [...windows(640, 0.9), ...windows(96, 0.05), ...windows(640, 0.9), ...windows(640, 0)];
    const events = run(p);
    expect(events.map((e) => e.type)).toEqual(["speech_start", "speech_end"]);
    expect(events[1]).toMatchObject({ atMs: 1376, durationMs: 1376 });
  });

  it("splits on a silence at least the minimum long", () => {
    const p = [...windows(640, 0.9), ...windows(640, 0.05), ...windows(640, 0.9)];
    expect(run(p, { minSilenceMs: 500 }).map((e) => e.type)).toEqual(["speech_start", "speech_end", "speech_start", "speech_end"]);
  });

  it("applies hysteresis: starts at the start threshold, holds down to the end threshold", () => {
    expect(run(windows(960, 0.45))).toEqual([]); // under the start threshold
    const held = run([...windows(320, 0.6), ...windows(960, 0.4), ...windows(640, 0.1)]);
    expect(held[1]).toMatchObject({ type: "speech_end", atMs: 1280 });
  });

  it("emits one probability per window for telemetry and closes an open segment on flush", () => {
    const seg = new VadSegmenter();
    const events = [0.1, 0.9].flatMap((p) => seg.push(p));
    expect(events).toEqual([
      { type: "probability", atMs: 0, probability: 0.1 },
      { type: "probability", atMs: 32, probability: 0.9 },
    ]);
    for (let i = 0; i < 10; i++) seg.push(0.9);
    expect(seg.speaking).toBe(true);
    expect(seg.flush()).toEqual([{ type: "speech_end", atMs: 32 * 12, durationMs: 32 * 11 }]);
    expect(seg.speaking).toBe(false);
  });
});

describe("VadFramer", () => {
  it("frames chunks of any length into 512-sample windows scaled to [-1, 1]", () => {
    const framer = new VadFramer();
    const pcm = Int16Array.from({ length: 1300 }, (_, i) => (i % 2 ? 16384 : -32768));
    const out = [...framer.push(pcm.subarray(0, 77)), ...framer.push(pcm.subarray(77, 1100)), ...framer.push(pcm.subarray(1100))];
    expect(out).toHaveLength(2);
    expect(out[0][0]).toBe(-1);
    expect(out[0][1]).toBe(0.5);
    expect(out[1][0]).toBe(-1); // sample 512 is even
    expect(framer.buffered).toBe(1300 - 1024);
  });
});

describe("pcmFromBytes", () => {
  it("reads little-endian s16 and reports an odd byte count", () => {
    const even = pcmFromBytes(Uint8Array.from([0x01, 0x00, 0xff, 0xff]));
    expect([...even.pcm]).toEqual([1, -1]);
    expect(even.oddLength).toBe(false);
    const odd = pcmFromBytes(Uint8Array.from([0x00, 0x80, 0x05]));
    expect([...odd.pcm]).toEqual([-32768]);
    expect(odd.oddLength).toBe(true);
  });

  it("copies bytes that do not start on a 2-byte boundary", () => {
    const backing = Buffer.from([0xaa, 0x02, 0x00, 0x03, 0x00]);
    const frame = pcmFromBytes(backing.subarray(1));
    expect([...frame.pcm]).toEqual([2, 3]);
  });
});
