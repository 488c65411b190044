import { describe, expect, it } from "vitest";
import { encodeWav } from "../wav.ts";
import { NotWavError, WavStreamDecoder } from "./wav-stream.ts";

const ramp = (n: number) => Int16Array.from({ length: n }, (_, i) => ((i * 37) % 30000) - 15000);

function feed(decoder: WavStreamDecoder, bytes: Uint8Array, step: number): Int16Array {
  const out: number[] = [];
  for (let at = 0; at < bytes.length; at += step) out.push(...decoder.push(bytes.subarray(at, at + step)));
  decoder.end();
  return Int16Array.from(out);
}

/** A WAV header with placeholder sizes, as Chatterbox's `stream: true` sends it. */
function streamedWav(pcm: Int16Array, rate: number): Uint8Array {
  const wav = encodeWav(pcm, rate);
  const v = new DataView(wav.buffer);
  v.setUint32(4, 0xffffffff, true);
  v.setUint32(40, 0xffffffff, true);
  return wav;
}

describe("WavStreamDecoder", () => {
  it("decodes a WAV fed one byte at a time, samples straddling reads", () => {
    const pcm = ramp(1001);
    const d = new WavStreamDecoder();
    expect(feed(d, encodeWav(pcm, 24_000), 1)).toEqual(pcm);
    expect(d.sampleRate).toBe(24_000);
  });

  it("reads past placeholder sizes when they are not trusted (a stream)", () => {
    const pcm = ramp(5000);
    expect(feed(new WavStreamDecoder(false), streamedWav(pcm, 24_000), 333)).toEqual(pcm);
    expect(feed(new WavStreamDecoder(true), streamedWav(pcm, 24_000), 4096)).toEqual(pcm);
  });

  it("stops at the data size of a whole file, ignoring chunks after it", () => {
    const pcm = ramp(100);
    const tail = new Uint8Array([...Buffer.from("LIST"), 4, 0, 0, 0, ...Buffer.from("INFO")]);
    const wav = new Uint8Array([...encodeWav(pcm, 24_000), ...tail]);
    expect(feed(new WavStreamDecoder(true), wav, 7)).toEqual(pcm);
  });

  it("skips chunks between fmt and data, and averages stereo to mono", () => {
    const stereo = Int16Array.from([100, 300, -100, -300, 32767, 32767]);
    const wav = encodeWav(stereo, 16_000, 2);
    const junk = new Uint8Array([...Buffer.from("JUNK"), 3, 0, 0, 0, 1, 2, 3, 0]); // odd size, padded
    const withJunk = new Uint8Array([...wav.subarray(0, 36), ...junk, ...wav.subarray(36)]);
    const d = new WavStreamDecoder();
    expect(Array.from(feed(d, withJunk, 5))).toEqual([200, -200, 32767]);
    expect(d.sampleRate).toBe(16_000);
  });

  it("converts 32-bit float WAV", () => {
    const wav = encodeWav(new Int16Array(4), 24_000); // header template, rewritten to float
    const v = new DataView(wav.buffer);
    v.setUint16(20, 3, true);
    v.setUint16(34, 32, true);
    v.setUint32(40, 8, true);
    const body = new Float32Array([0.5, -1]);
    const bytes = new Uint8Array([...wav.subarray(0, 44), ...new Uint8Array(body.buffer)]);
    expect(Array.from(feed(new WavStreamDecoder(true), bytes, 3))).toEqual([16384, -32767]);
  });

  it("refuses what is not a WAVE file at its first bytes", () => {
    expect(() => new WavStreamDecoder().push(Buffer.from("<html>"))).toThrow(NotWavError);
    expect(() => new WavStreamDecoder().push(Buffer.from('{"detail":"x"}'))).toThrow(NotWavError);
  });

  it("refuses 8-bit or 24-bit PCM, a truncated header, and an empty answer", () => {
    const wav = encodeWav(ramp(10), 24_000);
    new DataView(wav.buffer).setUint16(34, 24, true);
    expect(() => new WavStreamDecoder().push(wav)).toThrow(/neither 16-bit PCM nor 32-bit float/);
    const d = new WavStreamDecoder();
    d.push(encodeWav(ramp(10), 24_000).subarray(0, 30));
    expect(() => d.end()).toThrow(/inside the WAVE header/);
    expect(() => new WavStreamDecoder().end()).toThrow(/empty/);
  });
});
