// Implements: decoding an uploaded video for preparation (issue 10 item 3: "its frames (decoded
// with ffmpeg)"): ffmpeg started with arguments (never a shell), one thread so the live stream
// keeps the other core, raw RGB frames streamed out of its stdout one at a time (backpressure:
// ffmpeg waits while a frame is being tracked), killed with the box or on a time limit.
// An upload is opened only as the container its bytes were judged to be, reading only that file:
// left to guess, ffmpeg reads a file that merely mentions `free` as a DASH manifest and follows its
// URLs to other people's media on the volume.
import { spawn } from "node:child_process";
import { adoptChild } from "../media/child-reaper.ts";
import { diesWithParent } from "../media/parent-death.ts";

export const FFMPEG_PATH = "/usr/bin/ffmpeg";

/** The demuxers an uploaded video may be opened with (`mov` reads MP4 and MOV, `matroska` WEBM and MKV). */
export type VideoDemuxer = "mov" | "matroska";

/** A stored video and the demuxer its bytes were judged to need. */
export interface VideoFile {
  path: string;
  demuxer: VideoDemuxer;
}

/** ffmpeg/ffprobe input arguments that open this one file with this one demuxer, and nothing else. */
export function videoInputArgs(f: VideoFile): string[] {
  return ["-protocol_whitelist", "file", "-f", f.demuxer, "-i", `file:${f.path}`];
}

/** ffmpeg's last line without the volume's path (the sentence is shown to the uploader). */
export function lastLineOf(stderr: string, path: string): string {
  const line = stderr.trim().split("\n").pop() ?? "";
  return line.split(`file:${path}: `).join("").split(`file:${path}`).join("the file").split(path).join("the file").trim().slice(0, 200);
}

export interface DecodeOptions {
  /** Seconds into the video to start at (frame-accurate: ffmpeg decodes from the keyframe before). */
  startS?: number;
  /** Seconds to decode. */
  seconds?: number;
  /** The -vf chain; it must end at exactly width x height. */
  filters: string;
  width: number;
  height: number;
  /** At most this many frames are read, then ffmpeg is stopped. */
  maxFrames?: number;
  timeoutMs?: number;
  ffmpegPath?: string;
}

export class DecodeError extends Error {}

/** RGB frames (3 bytes a pixel, width x height) of a video, in order. */
export async function* rgbFrames(video: VideoFile, o: DecodeOptions): AsyncGenerator<Uint8Array> {
  const args = ["-v", "error", "-nostdin", "-threads", "1"];
  if (o.startS) args.push("-ss", o.startS.toFixed(3));
  args.push(...videoInputArgs(video));
  if (o.seconds) args.push("-t", o.seconds.toFixed(3));
  args.push("-an", "-sn", "-dn", "-vf", o.filters, "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1");
  const wrapped = diesWithParent(o.ffmpegPath ?? FFMPEG_PATH, args);
  const child = spawn(wrapped.command, wrapped.args, { stdio: ["ignore", "pipe", "pipe"] });
  adoptChild(child);
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (err) => {
      stderr += err.message;
      resolve(-1);
    });
    child.once("close", (code) => resolve(code));
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, o.timeoutMs ?? 120_000);
  const frameBytes = o.width * o.height * 3;
  const max = o.maxFrames ?? Infinity;
  let frame = new Uint8Array(frameBytes);
  let filled = 0;
  let count = 0;
  try {
    for await (const chunk of child.stdout! as AsyncIterable<Buffer>) {
      let at = 0;
      while (at < chunk.length) {
        const n = Math.min(chunk.length - at, frameBytes - filled);
        frame.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === frameBytes) {
          yield frame;
          frame = new Uint8Array(frameBytes);
          filled = 0;
          if (++count >= max) return;
        }
      }
    }
    const code = await exited;
    if (timedOut) throw new DecodeError(`decoding the video took longer than ${Math.round((o.timeoutMs ?? 120_000) / 1000)} s`);
    if (code !== 0 && count === 0)
      throw new DecodeError(`the video could not be decoded (${lastLineOf(stderr, video.path) || `ffmpeg exited with ${code}`})`);
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}
