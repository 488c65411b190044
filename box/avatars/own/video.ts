// Implements: the video side of POST /api/avatar (part `file` as MP4/MOV/WEBM, and `take__*`):
// ffprobe to refuse what is not a usable video, ffmpeg to pull stills out of one. A video face is
// prepared from one well-lit frame for now; `sampleFrames` is the seam a looped idle base uses later.
import { spawn } from "node:child_process";
import { adoptChild } from "../../media/child-reaper.ts";
import { diesWithParent } from "../../media/parent-death.ts";

export const FFPROBE = "/usr/bin/ffprobe";
export const FFMPEG = "/usr/bin/ffmpeg";

export interface VideoLimits {
  maxSeconds: number;
  maxPixels: number;
}
export const VIDEO_LIMITS: VideoLimits = { maxSeconds: 120, maxPixels: 4096 * 2304 };

export interface VideoInfo {
  durationS: number;
  width: number;
  height: number;
  codec: string;
  format: string;
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

/** What ffprobe says of a file; throws BadVideo with a sentence a person can act on. */
export async function probeVideo(path: string, limits: VideoLimits = VIDEO_LIMITS): Promise<VideoInfo> {
  const r = await run(FFPROBE, ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height,duration:format=duration,format_name", "-of", "json", path], 20_000);
  if (r.code !== 0) throw new BadVideo(`the video could not be read (${lastLine(r.stderr) || "ffprobe refused it"}).`);
  let parsed: { streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }[]; format?: { duration?: string; format_name?: string } };
  try {
    parsed = JSON.parse(r.stdout.toString("utf8"));
  } catch {
    throw new BadVideo("the video could not be read (ffprobe gave no answer).");
  }
  const video = parsed.streams?.find((s) => s.codec_type === "video" && s.width && s.height);
  if (!video) throw new BadVideo("the file has no video stream.");
  const durationS = Number(parsed.format?.duration ?? video.duration);
  if (!Number.isFinite(durationS) || durationS <= 0) throw new BadVideo("the video's length could not be read (it may be truncated).");
  if (durationS > limits.maxSeconds) throw new BadVideo(`the video is ${Math.round(durationS)} s long; at most ${limits.maxSeconds} s is accepted.`);
  const width = video.width!;
  const height = video.height!;
  if (width * height > limits.maxPixels) throw new BadVideo(`the video is ${width}x${height}; at most ${limits.maxPixels} pixels a frame is accepted (e.g. 4096x2304).`);
  return { durationS, width, height, codec: video.codec_name ?? "", format: parsed.format?.format_name ?? "" };
}

function lastLine(s: string): string {
  return s.trim().split("\n").pop()?.trim().slice(0, 200) ?? "";
}

const THUMB = 48;

/** Mean and spread of luma of a small grey frame pulled at `t` seconds (null when none decodes). */
async function lumaAt(path: string, t: number): Promise<{ mean: number; std: number } | null> {
  const r = await run(FFMPEG, ["-v", "error", "-ss", t.toFixed(3), "-i", path, "-frames:v", "1", "-vf", `scale=${THUMB}:${THUMB},format=gray`, "-f", "rawvideo", "-"], 20_000);
  if (r.code !== 0 || r.stdout.length < THUMB * THUMB) return null;
  const px = r.stdout.subarray(0, THUMB * THUMB);
  let sum = 0;
  for (const v of px) sum += v;
  const mean = sum / px.length;
  let sq = 0;
  for (const v of px) sq += (v - mean) ** 2;
  return { mean, std: Math.sqrt(sq / px.length) };
}

/** Times (s) spread across the video, off its very first and last frames (fades, black slates). */
export function sampleTimes(durationS: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => (durationS * (i + 1)) / (count + 1));
}

/**
 * The best-lit frame's time: of `count` samples, the one with mid-range brightness and the most
 * contrast (a dark or blown-out frame loses the face detector, a flat one has no features).
 */
export async function wellLitTime(path: string, durationS: number, count = 6): Promise<number> {
  let best = { t: sampleTimes(durationS, 1)[0], score: -Infinity };
  for (const t of sampleTimes(durationS, count)) {
    const l = await lumaAt(path, t);
    if (!l) continue;
    const score = l.std - Math.abs(l.mean - 128) * 0.5 - (l.mean < 40 || l.mean > 215 ? 100 : 0);
    if (score > best.score) best = { t, score };
  }
  return best.t;
}

/** One full-size frame at `t` seconds as PNG bytes (rotation metadata applied by ffmpeg). */
export async function frameAsPng(path: string, t: number): Promise<Uint8Array> {
  const r = await run(FFMPEG, ["-v", "error", "-ss", t.toFixed(3), "-i", path, "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "-"], 30_000);
  if (r.code !== 0 || r.stdout.length === 0) throw new BadVideo(`no frame could be decoded from the video at ${t.toFixed(1)} s (${lastLine(r.stderr) || "ffmpeg gave nothing"}).`);
  return new Uint8Array(r.stdout);
}

/** Frames at the given times as PNG bytes: the seam for a video idle base built from many frames. */
export async function sampleFrames(path: string, times: number[]): Promise<Uint8Array[]> {
  const frames: Uint8Array[] = [];
  for (const t of times) frames.push(await frameAsPng(path, t));
  return frames;
}
