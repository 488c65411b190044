// Implements: the box's own check of a reference clip before `POST /api/voice/upload` sends it to
// Chatterbox (spec: "clip transcoded to mono and length-checked, too short is refused with a
// readable message"). ffprobe reads the length from the header first, so a two-hour file is
// refused without decoding it; ffmpeg (arguments, never a shell; one thread; a time limit) then
// makes mono 24 kHz s16 WAV, the model's own rate (docs/providers.md §3: S3GEN_SR = 24 000).
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { adoptChild } from "../../media/child-reaper.ts";
import { diesWithParent } from "../../media/parent-death.ts";
import { encodeWav } from "../wav.ts";

export const REFERENCE_SAMPLE_RATE = 24_000;

export type ReferenceClipProblem = "not_audio" | "too_short" | "too_long" | "silent" | "unavailable";

/** The clip cannot be used; `message` is for a person ("too short: 2.1 s, at least 5 s"). `unavailable`: the box has no ffmpeg. */
export class ReferenceClipError extends Error {
  constructor(
    readonly reason: ReferenceClipProblem,
    message: string,
  ) {
    super(message);
    this.name = "ReferenceClipError";
  }
}

export interface ReferenceClipOptions {
  ffmpegPath?: string;
  /** Default: `ffprobe` next to `ffmpegPath`. */
  ffprobePath?: string;
  minSeconds?: number;
  maxSeconds?: number;
  /**
   * Longest audio kept; a longer clip (up to `maxSeconds`) is cut. Default 30: devnen refuses
   * longer references (`max_reference_duration_sec`), and the model listens to the first 10 s.
   */
  keepSeconds?: number;
  /** RMS over the kept audio below this is "silent". */
  silenceDbfs?: number;
  /** Each of ffprobe and ffmpeg is killed after this long. */
  timeoutMs?: number;
  tmpDir?: string;
}

export interface ReferenceClip {
  /** Mono 24 kHz 16-bit WAV, ready for `ChatterboxEngine.uploadReference`. */
  wav: Uint8Array;
  sampleRate: number;
  /** Length of `wav`. */
  seconds: number;
  /** Length of the input (more than `seconds` when it was cut to `keepSeconds`). */
  sourceSeconds: number;
  rmsDbfs: number;
}

// Audio containers only: a playlist or concat script could otherwise make ffmpeg open other files.
const FORMATS = "wav,w64,mp3,ogg,flac,mov,matroska,aac,aiff,caf,au,amr,asf,wv";

const refuse = (reason: ReferenceClipProblem, message: string) => new ReferenceClipError(reason, message);

/** Transcodes any audio to the reference format, or throws ReferenceClipError saying why not. */
export async function prepareReferenceClip(bytes: Uint8Array, options: ReferenceClipOptions = {}): Promise<ReferenceClip> {
  const o = {
    ffmpegPath: options.ffmpegPath ?? "/usr/bin/ffmpeg",
    minSeconds: options.minSeconds ?? 5,
    maxSeconds: options.maxSeconds ?? 60,
    silenceDbfs: options.silenceDbfs ?? -50,
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const keepSeconds = Math.min(options.keepSeconds ?? 30, o.maxSeconds);
  const ffprobePath = options.ffprobePath ?? (o.ffmpegPath.includes("/") ? join(dirname(o.ffmpegPath), "ffprobe") : "ffprobe");
  if (bytes.length === 0) throw refuse("not_audio", "not audio: the file is empty");

  const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), "reference-clip-"));
  try {
    const path = join(dir, "clip");
    await writeFile(path, bytes);
    const probed = await probeSeconds(ffprobePath, path, o.timeoutMs);
    if (probed !== null && probed > o.maxSeconds + 0.05) throw tooLong(probed, o.maxSeconds);

    const pcm = await decode(o.ffmpegPath, path, o.maxSeconds, o.timeoutMs);
    const sourceSeconds = pcm.length / REFERENCE_SAMPLE_RATE;
    if (sourceSeconds > o.maxSeconds + 0.25) throw tooLong(probed ?? sourceSeconds, o.maxSeconds);
    if (sourceSeconds < o.minSeconds) throw refuse("too_short", `too short: ${seconds(sourceSeconds)}, at least ${o.minSeconds} s`);
    const kept = pcm.subarray(0, Math.round(keepSeconds * REFERENCE_SAMPLE_RATE));
    const rmsDbfs = dbfs(kept);
    if (rmsDbfs < o.silenceDbfs) throw refuse("silent", `silent: the clip is quieter than ${o.silenceDbfs} dBFS throughout`);
    return {
      wav: encodeWav(kept, REFERENCE_SAMPLE_RATE),
      sampleRate: REFERENCE_SAMPLE_RATE,
      seconds: kept.length / REFERENCE_SAMPLE_RATE,
      sourceSeconds,
      rmsDbfs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The length ffprobe reads from the header; null when it cannot tell (decoding decides then). */
async function probeSeconds(ffprobe: string, path: string, timeoutMs: number): Promise<number | null> {
  const args = [
    "-v",
    "error",
    "-protocol_whitelist",
    "file",
    "-format_whitelist",
    FORMATS,
    "-show_entries",
    "stream=codec_type,duration:format=duration",
    "-of",
    "json",
    path,
  ];
  const r = await runChild(ffprobe, args, timeoutMs, 1024 * 1024);
  if (r.spawnError) throw refuse("unavailable", `the box cannot run ffprobe to read audio (${r.spawnError})`);
  if (r.timedOut) throw refuse("not_audio", "not audio: the file could not be read in time");
  if (r.code !== 0) throw refuse("not_audio", "not audio: the file is not in an audio format the box can read");
  let parsed: { streams?: { codec_type?: string; duration?: string }[]; format?: { duration?: string } };
  try {
    parsed = JSON.parse(r.stdout.toString("utf8"));
  } catch {
    throw refuse("not_audio", "not audio: the file could not be read");
  }
  const audio = parsed.streams?.find((s) => s.codec_type === "audio");
  if (!audio) throw refuse("not_audio", "not audio: the file has no sound track");
  const secs = Number(parsed.format?.duration ?? audio.duration);
  return Number.isFinite(secs) && secs > 0 ? secs : null;
}

/** The first audio stream as mono 24 kHz s16, at most one second past `maxSeconds`. */
async function decode(ffmpeg: string, path: string, maxSeconds: number, timeoutMs: number): Promise<Int16Array> {
  try {
    if (ffmpeg.includes("/")) accessSync(ffmpeg, constants.X_OK);
  } catch (err) {
    throw refuse("unavailable", `the box cannot run ffmpeg to read audio (${(err as Error).message})`);
  }
  const limit = maxSeconds + 1;
  const args = [
    "-hide_banner",
    "-nostdin",
    "-v",
    "error",
    "-threads",
    "1",
    "-protocol_whitelist",
    "file",
    "-format_whitelist",
    FORMATS,
    "-i",
    path,
    "-map",
    "0:a:0",
    "-vn",
    "-sn",
    "-dn",
    "-t",
    String(limit),
    "-threads",
    "1",
    "-ac",
    "1",
    "-ar",
    String(REFERENCE_SAMPLE_RATE),
    "-c:a",
    "pcm_s16le",
    "-f",
    "s16le",
    "pipe:1",
  ];
  const r = await runChild(ffmpeg, args, timeoutMs, (limit + 1) * REFERENCE_SAMPLE_RATE * 2);
  if (r.spawnError) throw refuse("unavailable", `the box cannot run ffmpeg to read audio (${r.spawnError})`);
  if (r.timedOut) throw refuse("not_audio", "not audio: the file could not be decoded in time");
  const samples = Math.floor(r.stdout.length / 2);
  if (r.code !== 0 || samples === 0) {
    const why = r.stderr.trim().split("\n").pop()?.replace(path, "the file").slice(0, 160);
    throw refuse("not_audio", `not audio: the file could not be decoded${why ? ` (${why})` : ""}`);
  }
  const pcm = new Int16Array(samples);
  for (let i = 0; i < samples; i++) pcm[i] = r.stdout.readInt16LE(i * 2);
  return pcm;
}

interface ChildResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
  spawnError?: string;
}

/** A child that dies with the box, killed after `timeoutMs`, stdout bounded to `maxStdout` bytes. */
function runChild(command: string, args: string[], timeoutMs: number, maxStdout: number): Promise<ChildResult> {
  const wrapped = diesWithParent(command, args);
  return new Promise((resolve) => {
    const child = spawn(wrapped.command, wrapped.args, { stdio: ["ignore", "pipe", "pipe"] });
    adoptChild(child);
    const out: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let timedOut = false;
    let spawnError: string | undefined;
    const timer = setTimeout(() => ((timedOut = true), child.kill("SIGKILL")), timeoutMs);
    child.stdout!.on("data", (d: Buffer) => {
      if (size >= maxStdout) return;
      out.push(d);
      size += d.length;
    });
    child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on("error", (e) => (spawnError = e.message));
    child.on("close", (code) => {
      clearTimeout(timer);
      // setpriv reports a missing program as exit 127 with its own message.
      if (!spawnError && code === 127 && /No such file|not found/i.test(stderr)) spawnError = stderr.trim().split("\n").pop();
      resolve({ code, stdout: Buffer.concat(out), stderr, timedOut, spawnError });
    });
  });
}

function dbfs(pcm: Int16Array): number {
  if (pcm.length === 0) return -Infinity;
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) sum += pcm[i] * pcm[i];
  const rms = Math.sqrt(sum / pcm.length) / 32768;
  return rms > 0 ? 20 * Math.log10(rms) : -Infinity;
}

function tooLong(secs: number, max: number): ReferenceClipError {
  return refuse("too_long", `too long: ${seconds(secs)}, at most ${max} s`);
}

const seconds = (s: number) => (s < 600 ? `${s.toFixed(1)} s` : `${Math.round(s / 60)} min`);
