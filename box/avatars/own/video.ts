// Implements: the video side of POST /api/avatar (part `file` as MP4/MOV/WEBM, and `take__*`):
// ffprobe refuses what is not a usable video and tells the preparer the size the frames are
// shown at (box/faces/prepare-video.ts decodes them with ffmpeg into the face's idle loop).
// The container is judged from the file's own bytes and ffprobe is held to it (video-decode.ts).
import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { lastLineOf, videoInputArgs, type VideoDemuxer } from "../../faces/video-decode.ts";
import { adoptChild } from "../../media/child-reaper.ts";
import { diesWithParent } from "../../media/parent-death.ts";
import { sniff } from "./sniff.ts";

export const FFPROBE = "/usr/bin/ffprobe";
export const FFMPEG = "/usr/bin/ffmpeg";

export interface VideoLimits {
  maxSeconds: number;
  maxPixels: number;
}
export const VIDEO_LIMITS: VideoLimits = { maxSeconds: 120, maxPixels: 4096 * 2304 };

export interface VideoInfo {
  durationS: number;
  /** Stored size of a frame. */
  width: number;
  height: number;
  /** Size as shown: turned by the rotation the file declares, non-square pixels made square. */
  displayWidth: number;
  displayHeight: number;
  codec: string;
  format: string;
  /** What every later ffmpeg must open the file with. */
  demuxer: VideoDemuxer;
}

export class BadVideo extends Error {}

interface RunResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a child that dies with the box, with a time limit; stdout is collected (bounded). */
export function run(command: string, args: string[], timeoutMs: number, maxStdout = 64 * 1024 * 1024): Promise<RunResult> {
  const wrapped = diesWithParent(command, args);
  const child = spawn(wrapped.command, wrapped.args, { stdio: ["ignore", "pipe", "pipe"] });
  adoptChild(child);
  const out: Buffer[] = [];
  let outBytes = 0;
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => {
    outBytes += d.length;
    if (outBytes > maxStdout) child.kill("SIGKILL");
    else out.push(d);
  });
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) => {
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout: Buffer.alloc(0), stderr: err.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr });
    });
  });
}

/** The demuxer the file's first bytes call for; BadVideo when they are not a video container we take. */
export async function demuxerOf(path: string): Promise<VideoDemuxer> {
  const head = new Uint8Array(64);
  const file = await open(path, "r");
  try {
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const kind = sniff(head.subarray(0, bytesRead));
    if (kind === "mp4" || kind === "mov") return "mov";
    if (kind === "webm" || kind === "mkv") return "matroska";
    throw new BadVideo("the file is not an MP4, MOV or WEBM video (judged by its contents, not its name).");
  } finally {
    await file.close();
  }
}

/** What ffprobe says of a file; throws BadVideo with a sentence a person can act on. */
export async function probeVideo(path: string, limits: VideoLimits = VIDEO_LIMITS): Promise<VideoInfo> {
  const demuxer = await demuxerOf(path);
  const entries =
    "stream=codec_type,codec_name,width,height,duration,sample_aspect_ratio:stream_side_data=rotation:stream_tags=rotate:format=duration,format_name";
  const r = await run(FFPROBE, ["-v", "error", "-show_entries", entries, "-of", "json", ...videoInputArgs({ path, demuxer })], 20_000);
  if (r.code !== 0) throw new BadVideo(`the video could not be read (${lastLineOf(r.stderr, path) || "ffprobe refused it"}).`);
  let parsed: { streams?: ProbedStream[]; format?: { duration?: string; format_name?: string } };
  try {
    parsed = JSON.parse(r.stdout.toString("utf8"));
  } catch {
    throw new BadVideo("the video could not be read (ffprobe gave no answer).");
  }
  const video = parsed.streams?.find((s) => s.codec_type === "video" && s.width && s.height);
  if (!video) throw new BadVideo("the file has no video stream.");
  const durationS = Number(parsed.format?.duration ?? video.duration);
  if (!Number.isFinite(durationS) || durationS <= 0) throw new BadVideo("the video's length could not be read (it may be truncated).");
  if (durationS > limits.maxSeconds)
    throw new BadVideo(`the video is ${Math.round(durationS)} s long; at most ${limits.maxSeconds} s is accepted.`);
  const width = video.width!;
  const height = video.height!;
  if (width * height > limits.maxPixels)
    throw new BadVideo(`the video is ${width}x${height}; at most ${limits.maxPixels} pixels a frame is accepted (e.g. 4096x2304).`);
  return {
    durationS,
    width,
    height,
    ...displaySize(video),
    codec: video.codec_name ?? "",
    format: parsed.format?.format_name ?? "",
    demuxer,
  };
}

interface ProbedStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  sample_aspect_ratio?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

/** What ffmpeg outputs by default: non-square pixels stretched to square, then the declared rotation applied. */
function displaySize(s: ProbedStream): { displayWidth: number; displayHeight: number } {
  const [n, d] = (s.sample_aspect_ratio ?? "1:1").split(":").map(Number);
  const sar = n > 0 && d > 0 ? n / d : 1;
  let w = s.width!;
  let h = s.height!;
  if (sar > 1) w = Math.round(w * sar);
  else if (sar < 1) h = Math.round(h / sar);
  const rotation = Number(s.side_data_list?.find((x) => x.rotation !== undefined)?.rotation ?? s.tags?.rotate ?? 0);
  const quarter = Math.abs(Math.round(rotation / 90)) % 2 === 1;
  return quarter ? { displayWidth: h, displayHeight: w } : { displayWidth: w, displayHeight: h };
}
