// Test input: real VP8 RTP made from a photo. ffmpeg (libvpx) encodes the still as an IVF clip;
// werift's VP8 packetizer cuts its frames into RTP packets as a browser's sender would.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { werift } from "../../media/werift.ts";

export type RtpLike = { header: { sequenceNumber: number; timestamp: number; marker: boolean }; payload: Buffer };

/** The frames of an IVF file, in order. */
export function ivfFrames(ivf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = ivf.readUInt16LE(6); i + 12 <= ivf.length; ) {
    const size = ivf.readUInt32LE(i);
    out.push(ivf.subarray(i + 12, i + 12 + size));
    i += 12 + size;
  }
  return out;
}

/** `seconds` of VP8 at `fps` showing `image` (any format ffmpeg reads) at `width`x`height`. */
export function vp8Clip(image: Uint8Array, o: { width: number; height: number; fps: number; seconds: number; filter?: string }): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), "vp8-clip-"));
  try {
    writeFileSync(join(dir, "in.img"), image);
    const vf = o.filter ?? `scale=${o.width}:${o.height}`;
    execFileSync(
      "ffmpeg",
      [
        "-hide_banner",
        "-nostdin",
        "-loglevel",
        "error",
        "-loop",
        "1",
        "-i",
        join(dir, "in.img"),
        "-t",
        String(o.seconds),
        "-r",
        String(o.fps),
        "-vf",
        vf,
        "-c:v",
        "libvpx",
        "-b:v",
        "1M",
        "-deadline",
        "realtime",
        "-cpu-used",
        "8",
        "-g",
        String(o.fps * 2),
        "-f",
        "ivf",
        join(dir, "out.ivf"),
      ],
      { stdio: ["ignore", "ignore", "pipe"], timeout: 60_000 },
    );
    return ivfFrames(readFileSync(join(dir, "out.ivf")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The frames as RTP packets: 90 kHz timestamps at `fps`, marker on each frame's last packet. */
export function rtpOf(frames: Buffer[], fps: number): RtpLike[] {
  const packetizer = new werift.Vp8Packetizer({ payloadType: 96, ssrc: 1234, sequenceNumber: 65_000 });
  return frames.flatMap((f, i) => packetizer.packetize(f, (4_294_900_000 + Math.round((i * 90_000) / fps)) >>> 0));
}
