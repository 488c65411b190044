// Implements: docs/api-notes.md "Perception": whole VP8 frames out of the client's camera RTP
// (RFC 7741). Packets of one frame share a timestamp; the marker bit ends it. A frame with a
// missing packet is dropped, and so is everything after it until the next keyframe (a VP8 inter
// frame needs its predecessors): `onLoss` asks the sender for one (RTCP PLI).
import { werift } from "../media/werift.ts";

export interface Vp8Frame {
  data: Buffer;
  /** RTP timestamp (90 kHz), unwrapped so it only grows. */
  timestamp: number;
  keyframe: boolean;
}

/** Width and height of a VP8 keyframe (RFC 6386 §9.1), or null when `frame` is not one. */
export function vp8KeyframeSize(frame: Uint8Array): { width: number; height: number } | null {
  if (frame.length < 10 || (frame[0]! & 1) !== 0) return null;
  if (frame[3] !== 0x9d || frame[4] !== 0x01 || frame[5] !== 0x2a) return null;
  return { width: (frame[6]! | (frame[7]! << 8)) & 0x3fff, height: (frame[8]! | (frame[9]! << 8)) & 0x3fff };
}

/** Packets held for one frame at most: a frame bigger than this is treated as lost. */
const MAX_PACKETS_PER_FRAME = 2_000;

export class Vp8FrameAssembler {
  private parts: { seq: number; payload: Buffer }[] = [];
  private timestamp: number | null = null;
  private lastSeq: number | null = null;
  private needKeyframe = true;
  private wraps = 0;
  private lastRawTs: number | null = null;

  constructor(
    private readonly onFrame: (frame: Vp8Frame) => void,
    private readonly onLoss: () => void,
  ) {}

  push(packet: { header: { sequenceNumber: number; timestamp: number; marker: boolean }; payload: Buffer }): void {
    const { sequenceNumber: seq, timestamp: ts, marker } = packet.header;
    if (this.lastSeq !== null && ((seq - this.lastSeq) & 0xffff) > 0x8000) return; // late or repeated
    if (this.lastSeq !== null && ((seq - this.lastSeq) & 0xffff) !== 1) this.lose();
    this.lastSeq = seq;
    if (this.timestamp !== null && ts !== this.timestamp) this.lose(); // the previous frame never ended
    if (packet.payload.length === 0) return;
    let vp8: { payload: Buffer; sBit: number; pid: number };
    try {
      vp8 = werift.Vp8RtpPayload.deSerialize(packet.payload);
    } catch {
      return this.lose();
    }
    if (this.parts.length === 0 && !(vp8.sBit === 1 && vp8.pid === 0)) return this.lose(); // not a frame's start
    this.timestamp = ts;
    this.parts.push({ seq, payload: vp8.payload });
    if (this.parts.length > MAX_PACKETS_PER_FRAME) return this.lose();
    if (!marker) return;
    const data = Buffer.concat(this.parts.map((p) => p.payload));
    this.parts = [];
    this.timestamp = null;
    const keyframe = vp8KeyframeSize(data) !== null;
    if (this.needKeyframe && !keyframe) return;
    this.needKeyframe = false;
    this.onFrame({ data, timestamp: this.unwrap(ts), keyframe });
  }

  private unwrap(ts: number): number {
    if (this.lastRawTs !== null && ts < this.lastRawTs && this.lastRawTs - ts > 0x80000000) this.wraps++;
    this.lastRawTs = ts;
    return ts + this.wraps * 0x1_0000_0000;
  }

  private lose(): void {
    const had = this.parts.length > 0;
    this.parts = [];
    this.timestamp = null;
    if (had || !this.needKeyframe) {
      this.needKeyframe = true;
      this.onLoss();
    }
  }
}
