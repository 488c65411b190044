import { describe, expect, test } from "vitest";
import { isVp8KeyframeStart, RtpRetimer } from "./rtp-retimer.ts";

/** An ffmpeg-like RTP packet: version 2, given seq/timestamp, then `payload`. */
const rtp = (seq: number, ts: number, payload: number[] = [0x10, 0x00]): Buffer => {
  const b = Buffer.alloc(12 + payload.length);
  b[0] = 0x80;
  b[1] = 96;
  b.writeUInt16BE(seq, 2);
  b.writeUInt32BE(ts >>> 0, 4);
  Buffer.from(payload).copy(b, 12);
  return b;
};
const fixed = () => 0.5; // seq base 32768, timestamp base 2^31

describe("RtpRetimer", () => {
  test("timestamps are the source index times the unit, across an encoder restart", () => {
    const r = new RtpRetimer(3600, fixed);
    for (const i of [0, 1, 2]) r.wrote(i);
    const out = [rtp(7, 1000), rtp(8, 1000), rtp(9, 4600), rtp(10, 8200)].map((p) => [r.retime(p), p.readUInt32BE(4) - 2 ** 31, p.readUInt16BE(2)]);
    expect(out).toEqual([[0, 0, 32768], [0, 0, 32769], [1, 3600, 32770], [2, 7200, 32771]]);
    // The new process restarts its own numbering at a random base; inputs 3 and 4 were dropped meanwhile.
    r.newSource();
    r.wrote(5);
    r.wrote(6);
    const after = [rtp(40000, 777), rtp(40001, 777 + 3600)].map((p) => [r.retime(p), p.readUInt32BE(4) - 2 ** 31, p.readUInt16BE(2)]);
    expect(after).toEqual([[5, 5 * 3600, 32772], [6, 6 * 3600, 32773]]);
  });

  test("an input the encoder skipped does not shift the later ones", () => {
    const r = new RtpRetimer(960, fixed);
    for (const i of [10, 11, 12]) r.wrote(i);
    expect(r.retime(rtp(1, 0))).toBe(10);
    expect(r.retime(rtp(2, 1920))).toBe(12); // the packet for unit 1 never came
  });

  test("a packet that is not RTP is refused", () => {
    expect(new RtpRetimer(960, fixed).retime(Buffer.from([1, 2, 3]))).toBeNull();
  });
});

describe("isVp8KeyframeStart", () => {
  test("reads the keyframe bit after the payload descriptor", () => {
    // X=1, S=1, PID=0; I=1 with a 15-bit picture id; then the VP8 header byte (P bit 0 = key).
    expect(isVp8KeyframeStart(rtp(0, 0, [0x90, 0x80, 0x81, 0x23, 0x10]))).toBe(true);
    expect(isVp8KeyframeStart(rtp(0, 0, [0x90, 0x80, 0x81, 0x23, 0x11]))).toBe(false);
    // Not the start of a partition: never a keyframe start.
    expect(isVp8KeyframeStart(rtp(0, 0, [0x80, 0x80, 0x81, 0x23, 0x10]))).toBe(false);
  });
});
