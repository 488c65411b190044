// Implements: docs/architecture.md "The media path of one live session": RTP leaves on the session's own timeline.
// Pure core. ffmpeg numbers its packets from a random base per process; we rewrite sequence
// numbers and timestamps so that the timestamp is the source index (frame or audio chunk) times
// its duration, continuous across encoder restarts and honest about dropped inputs. Warm-up units
// (written at spawn so the encoder is initialised before real input) are dropped here.

export class RtpRetimer {
  private seq: number;
  private readonly base: number;
  /** Source indices written to the current encoder process, oldest first, not yet matched. */
  private written: number[] = [];
  private firstTs: number | null = null;
  private matched = -1; // unit number (0-based, per process, after the warm-up) of `current`
  private current = 0;
  private warmUp = 0;

  constructor(
    /** RTP ticks per source unit: 3600 for a 25 fps frame at 90 kHz, 960 for 20 ms at 48 kHz. */
    private readonly ticksPerUnit: number,
    random: () => number = Math.random,
  ) {
    this.seq = Math.floor(random() * 0x10000);
    this.base = Math.floor(random() * 0x1_0000_0000);
  }

  /** The encoder was handed source unit `index` (in order; gaps are dropped inputs). */
  wrote(index: number): void {
    this.written.push(index);
  }

  /**
   * A new encoder process starts from unit 0 with a new random timestamp base; its first
   * `warmUpUnits` units are warm-up input (never written through `wrote`) whose packets are dropped.
   */
  newSource(warmUpUnits = 0): void {
    this.written = [];
    this.firstTs = null;
    this.matched = -1;
    this.warmUp = warmUpUnits;
  }

  /** Rewrites `packet` in place and returns its source index; null when it is not RTP or warm-up (dropped). */
  retime(packet: Buffer): number | null {
    if (packet.length < 12 || packet[0] >> 6 !== 2) return null;
    const ts = packet.readUInt32BE(4);
    if (this.firstTs === null) this.firstTs = ts;
    const unit = Math.round(((ts - this.firstTs) >>> 0) / this.ticksPerUnit) - this.warmUp;
    if (unit < 0) return null;
    while (this.matched < unit) {
      const next = this.written.shift();
      // More output than input cannot happen with ffmpeg 1:1 encoding; extrapolate if it does.
      this.current = next ?? this.current + 1;
      this.matched++;
    }
    packet.writeUInt16BE(this.seq, 2);
    this.seq = (this.seq + 1) & 0xffff;
    packet.writeUInt32BE((this.base + this.current * this.ticksPerUnit) >>> 0, 4);
    return this.current;
  }
}

/** True for the first packet of a VP8 keyframe (RFC 7741 payload descriptor + VP8 header). */
export function isVp8KeyframeStart(packet: Buffer): boolean {
  const cc = packet[0] & 0x0f;
  let p = 12 + 4 * cc;
  if (packet[0] & 0x10) p += 4 + 4 * packet.readUInt16BE(p + 2);
  const d = packet[p];
  if (d === undefined || !(d & 0x10) || (d & 0x07) !== 0) return false; // not the start of partition 0
  p++;
  if (d & 0x80) {
    const x = packet[p++];
    if (x & 0x80) p += packet[p] & 0x80 ? 2 : 1; // picture id, 7 or 15 bits
    if (x & 0x40) p++; // TL0PICIDX
    if (x & 0x30) p++; // TID / KEYIDX
  }
  return p < packet.length && (packet[p] & 0x01) === 0;
}
