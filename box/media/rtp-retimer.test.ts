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
    const out = [rtp(7, 1000), rtp(8, 1000), rtp(9, 4600), rtp(10, 8200)].map((p) => [
      r.retime(p),
      p.readUInt32BE(4) - 2 ** 31,
      p.readUInt16BE(2),
    ]);
    expect(out).toEqual([
      [0, 0, 32768],
      [0, 0, 32769],
      [1, 3600, 32770],
      [2, 7200, 32771],
    ]);
    // The new process restarts its own numbering at a random base; inputs 3 and 4 were dropped meanwhile.
    r.newSource();
    r.wrote(5);
    r.wrote(6);
    const after = [rtp(40000, 777), rtp(40001, 777 + 3600)].map((p) => [r.retime(p), p.readUInt32BE(4) - 2 ** 31, p.readUInt16BE(2)]);
    expect(after).toEqual([
      [5, 5 * 3600, 32772],
      [6, 6 * 3600, 32773],
    ]);
  });

  test("an input the encoder skipped does not shift the later ones", () => {
    const r = new RtpRetimer(960, fixed);
    for (const i of [10, 11, 12]) r.wrote(i);
    expect(r.retime(rtp(1, 0))).toBe(10);
    expect(r.retime(rtp(2, 1920))).toBe(12); // the packet for unit 1 never came
  });

  test("warm-up units of a new process are dropped; the first real one maps to the first index written", () => {
    const r = new RtpRetimer(3600, fixed);
    r.newSource(1);
    expect(r.retime(rtp(500, 9000)), "the warm-up frame's packets never leave").toBeNull();
    expect(r.retime(rtp(501, 9000))).toBeNull();
    r.wrote(0);
    r.wrote(1);
    const p = rtp(502, 9000 + 3600);
    expect(r.retime(p)).toBe(0);
    expect([p.readUInt32BE(4) - 2 ** 31, p.readUInt16BE(2)], "sequence numbers have no gap for the dropped packets").toEqual([0, 32768]);
    expect(r.retime(rtp(503, 9000 + 7200))).toBe(1);
    // A restart warms up again; the timeline goes on from the next index written.
    r.newSource(1);
    r.wrote(7);
    expect(r.retime(rtp(9, 100))).toBeNull();
    const q = rtp(10, 100 + 3600);
    expect(r.retime(q)).toBe(7);
    expect([q.readUInt32BE(4) - 2 ** 31, q.readUInt16BE(2)]).toEqual([7 * 3600, 32770]);
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
