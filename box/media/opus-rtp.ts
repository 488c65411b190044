// Implements: docs/architecture.md "The media path of one live session": the audio encoder (Opus -> RTP).
// Opus is encoded in the box process (libopus compiled to WebAssembly, npm `opusscript`), one
// packet per 20 ms chunk, sent in the same wake-up that hands the chunk over. Measured against the
// ffmpeg child it replaces: ffmpeg's PCM demuxer reads 1024-sample blocks, so every 16th packet of
// 960 samples left 20 ms late and the next one at once; the receiver's jitter buffer sized itself
// to that (a ~50 ms target for packets that were otherwise 20 ms apart), and each session paid for
// one more process.
import OpusScript from "opusscript";
import type { EncoderCounters } from "./encoder.ts";

/** 48 kHz mono, 20 ms packets: the only shape the session's clock hands out. */
export const OPUS_CHUNK_SAMPLES = 960;
const RTP_HEADER_BYTES = 12;
/** Any dynamic type: werift rewrites the payload type (and SSRC) to what was negotiated. */
const PAYLOAD_TYPE = 111;
const OPUS_SET_BITRATE = 4002;
/** Speech from any voice engine, mono: transparent well below this. */
export const OPUS_BITRATE = 64_000;

let warmed = false;
/** Compiles the WebAssembly module once (~20-50 ms), so the first session does not wait for it. */
export function prepareOpus(): void {
  if (warmed) return;
  new OpusScript(48_000, 1, OpusScript.Application.RESTRICTED_LOWDELAY).delete();
  warmed = true;
}

export type OpusRtpOptions = {
  /** Called with each RTP packet and the 20 ms chunk index it carries (the session timeline). */
  onRtp: (packet: Buffer, index: number) => void;
  random?: () => number;
};

/** The same surface as the video encoder, synchronous: write() encodes and sends before it returns. */
export class OpusRtpEncoder {
  readonly counters: EncoderCounters = { inputs: 0, dropped: 0, packets: 0, keyframes: 0, restarts: 0, warmUpPackets: 0 };
  /** No process: there is nothing to wait for. */
  readonly ready = Promise.resolve();
  readonly pid = null;
  private opus: OpusScript | null;
  private seq: number;
  private readonly base: number;

  constructor(private readonly options: OpusRtpOptions) {
    const random = options.random ?? Math.random;
    this.seq = Math.floor(random() * 0x10000);
    this.base = Math.floor(random() * 0x1_0000_0000);
    // Restricted low delay: CELT only, 2.5 ms of look-ahead (SILK's would add 4 ms).
    this.opus = new OpusScript(48_000, 1, OpusScript.Application.RESTRICTED_LOWDELAY);
    this.opus.encoderCTL(OPUS_SET_BITRATE, OPUS_BITRATE);
    warmed = true;
  }

  /** Encodes one 20 ms chunk (960 samples, s16le bytes) for chunk `index`; false when closed or malformed. */
  write(data: Uint8Array, index: number): boolean {
    if (!this.opus || data.byteLength !== OPUS_CHUNK_SAMPLES * 2) {
      this.counters.dropped++;
      return false;
    }
    this.counters.inputs++;
    // opusscript copies the bytes into its heap before encoding: a view of the caller's buffer is enough.
    const payload = this.opus.encode(Buffer.from(data.buffer, data.byteOffset, data.byteLength), OPUS_CHUNK_SAMPLES);
    const packet = Buffer.allocUnsafe(RTP_HEADER_BYTES + payload.length);
    packet[0] = 0x80; // version 2, no padding, no extension, no CSRC
    packet[1] = PAYLOAD_TYPE;
    packet.writeUInt16BE(this.seq, 2);
    this.seq = (this.seq + 1) & 0xffff;
    // The timestamp is the chunk's place on the session timeline: gaps (dropped chunks) stay gaps.
    packet.writeUInt32BE((this.base + index * OPUS_CHUNK_SAMPLES) >>> 0, 4);
    packet.writeUInt32BE(0, 8); // SSRC: set by the sender
    payload.copy(packet, RTP_HEADER_BYTES);
    this.counters.packets++;
    this.options.onRtp(packet, index);
    return true;
  }

  close(): void {
    this.opus?.delete();
    this.opus = null;
  }
}
