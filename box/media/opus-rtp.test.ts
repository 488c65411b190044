import OpusScript from "opusscript";
import { describe, expect, test } from "vitest";
import { OPUS_CHUNK_SAMPLES, OpusRtpEncoder } from "./opus-rtp.ts";

/** 20 ms of a sine at `hz`, s16le bytes, continuing the phase of chunk `k`. */
function sineChunk(k: number, hz: number): Uint8Array {
  const pcm = new Int16Array(OPUS_CHUNK_SAMPLES);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * (k * OPUS_CHUNK_SAMPLES + i)) / 48_000));
  return new Uint8Array(pcm.buffer);
}

describe("OpusRtpEncoder", () => {
  test("each 20 ms chunk leaves at once as one RTP packet on the session timeline (gaps stay gaps)", () => {
    const sent: { packet: Buffer; index: number }[] = [];
    const encoder = new OpusRtpEncoder({ onRtp: (packet, index) => sent.push({ packet, index }), random: () => 0.5 });
    try {
      for (const index of [0, 1, 2, 5]) {
        expect(encoder.write(sineChunk(index, 440), index)).toBe(true);
        expect(sent.at(-1)?.index, "sent before write() returned").toBe(index);
      }
      const header = sent.map(({ packet }) => ({ version: packet[0] >> 6, seq: packet.readUInt16BE(2), ts: packet.readUInt32BE(4) }));
      expect(header.map((h) => h.version)).toEqual([2, 2, 2, 2]);
      expect(header.map((h) => h.seq - header[0].seq)).toEqual([0, 1, 2, 3]); // one packet per chunk sent
      expect(header.map((h) => h.ts - header[0].ts)).toEqual([0, 960, 1920, 4800]); // chunk 5 keeps its place
      expect(encoder.counters).toMatchObject({ inputs: 4, packets: 4, dropped: 0 });
    } finally {
      encoder.close();
    }
  });

  test("the packets decode back to the tone that went in", () => {
    const payloads: Buffer[] = [];
    const encoder = new OpusRtpEncoder({ onRtp: (packet) => payloads.push(packet.subarray(12)) });
    for (let k = 0; k < 50; k++) encoder.write(sineChunk(k, 440), k);
    encoder.close();
    const decoder = new OpusScript(48_000, 1);
    const decoded = Buffer.concat(payloads.map((p) => decoder.decode(p)));
    decoder.delete();
    const pcm = new Int16Array(decoded.buffer, decoded.byteOffset, decoded.length / 2).subarray(48_000 / 5); // past the codec's start
    let crossings = 0;
    let energy = 0;
    for (let i = 1; i < pcm.length; i++) {
      if (pcm[i - 1] < 0 !== pcm[i] < 0) crossings++;
      energy += pcm[i] * pcm[i];
    }
    const seconds = pcm.length / 48_000;
    expect(crossings / 2 / seconds).toBeCloseTo(440, -1); // 440 Hz within ±5
    expect(Math.sqrt(energy / pcm.length)).toBeGreaterThan(8000 / Math.SQRT2 - 600);
  });

  test("a chunk of the wrong length, or one written after close, is dropped and counted", () => {
    const sent: number[] = [];
    const encoder = new OpusRtpEncoder({ onRtp: (_, index) => sent.push(index) });
    expect(encoder.write(new Uint8Array(100), 0)).toBe(false);
    encoder.close();
    expect(encoder.write(sineChunk(0, 440), 1)).toBe(false);
    expect(sent).toEqual([]);
    expect(encoder.counters).toMatchObject({ inputs: 0, dropped: 2, packets: 0 });
  });
});
