// Uploaded audio to the box's clip format (POST /api/upload): the container is recognised by its
// first bytes (WAV, MP3, OGG, WEBM/Matroska; a renamed text file or image is refused before
// ffmpeg sees it), then ffmpeg, spawned with arguments (never a shell) and told that demuxer, decodes
// the first audio stream to mono 48 kHz s16 (the live stream's rate: /offer plays it as is).
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { ApiError } from "../../shared/errors/api-error.ts";
import { diesWithParent } from "../media/parent-death.ts";
import { adoptChild } from "../media/child-reaper.ts";
import type { ErrorCode } from "../../shared/wire/error-codes.ts";

export const CLIP_SAMPLE_RATE = 48_000;

export type AudioContainer = "wav" | "mp3" | "ogg" | "webm";
const DEMUXER: Record<AudioContainer, string> = { wav: "wav", mp3: "mp3", ogg: "ogg", webm: "matroska" };

export interface TranscodeOptions {
  ffmpegPath?: string;
  /** Longest audio kept, in seconds. */
  maxSeconds: number;
  /** ffmpeg is killed after this long. */
  timeoutMs?: number;
}

/** The container by its magic bytes; null when it is none of the four. */
export function sniffContainer(b: Uint8Array): AudioContainer | null {
  const ascii = (at: number, s: string) => b.length >= at + s.length && [...s].every((c, i) => b[at + i] === c.charCodeAt(0));
  if ((ascii(0, "RIFF") || ascii(0, "RF64")) && ascii(8, "WAVE")) return "wav";
  if (ascii(0, "OggS")) return "ogg";
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return "webm";
  if (ascii(0, "ID3")) return "mp3";
  // A bare MPEG audio frame: 11 sync bits, a layer, a bitrate index that is not "bad".
  if (b.length >= 4 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0 && (b[1] & 0x06) !== 0 && (b[2] & 0xf0) !== 0xf0) return "mp3";
  return null;
}

const refuse = (code: ErrorCode, message: string) => new ApiError(400, code, message);

/** Decodes `bytes` to mono 48 kHz s16, or throws the 400 (or 503: no ffmpeg) that says why. */
export async function transcodeToClip(bytes: Uint8Array, o: TranscodeOptions): Promise<Int16Array> {
  const container = sniffContainer(bytes);
  if (!container) throw refuse("unsupported_audio", "The file is not WAV, MP3, OGG or WEBM audio (judged by its contents, not its name).");
  const args = [
    "-hide_banner",
    "-nostdin",
    "-v",
    "error",
    "-threads",
    "1",
    "-protocol_whitelist",
    "pipe",
    "-f",
    DEMUXER[container],
    "-i",
    "pipe:0",
    // One second past the limit: enough to tell "too long" without decoding a ten-minute file.
    "-map",
    "0:a:0",
    "-vn",
    "-sn",
    "-dn",
    "-t",
    String(o.maxSeconds + 1),
    "-ac",
    "1",
    "-ar",
    String(CLIP_SAMPLE_RATE),
    "-c:a",
    "pcm_s16le",
    "-f",
    "s16le",
    "pipe:1",
  ];
  const ffmpeg = o.ffmpegPath ?? "/usr/bin/ffmpeg";
  try {
    // Checked here: behind setpriv a missing ffmpeg would look like a failed decode.
    if (ffmpeg.includes("/")) accessSync(ffmpeg, constants.X_OK);
  } catch (err) {
    throw new ApiError(503, "transcoder_unavailable", `The box cannot run ffmpeg to read audio (${(err as Error).message}).`);
  }
  const { command, args: wrapped } = diesWithParent(ffmpeg, args);
  const maxBytes = (o.maxSeconds + 2) * CLIP_SAMPLE_RATE * 2;
  const result = await new Promise<{
    code: number | null;
    out: Buffer;
    err: string;
    spawnError?: Error;
    overflow: boolean;
    timedOut: boolean;
  }>((resolve) => {
    const child = spawn(command, wrapped, { stdio: ["pipe", "pipe", "pipe"] });
    adoptChild(child);
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let overflow = false;
    let timedOut = false;
    let spawnError: Error | undefined;
    const timer = setTimeout(() => ((timedOut = true), child.kill("SIGKILL")), o.timeoutMs ?? 60_000);
    child.stdout!.on("data", (d: Buffer) => {
      outBytes += d.length;
      if (outBytes > maxBytes) return void ((overflow = true), child.kill("SIGKILL"));
      out.push(d);
    });
    child.stderr!.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.stdin!.on("error", () => {}); // EPIPE: ffmpeg stopped reading (no audio stream, or enough read)
    child.on("error", (e) => (spawnError = e));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out: Buffer.concat(out), err, spawnError, overflow, timedOut });
    });
    child.stdin!.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
  if (result.spawnError)
    throw new ApiError(503, "transcoder_unavailable", `The box cannot run ffmpeg to read audio (${result.spawnError.message}).`);
  if (result.timedOut) throw refuse("invalid_audio", "The audio could not be decoded in time.");
  if (/matches no streams|does not contain any stream|no audio stream/i.test(result.err)) {
    throw refuse("no_audio_stream", `The ${container.toUpperCase()} file has no audio stream.`);
  }
  const samples = Math.floor(result.out.length / 2);
  if (result.overflow || samples > (o.maxSeconds + 0.25) * CLIP_SAMPLE_RATE) {
    throw refuse("audio_too_long", `The audio is longer than ${o.maxSeconds} seconds; upload at most ${o.maxSeconds} s.`);
  }
  if (result.code !== 0 || samples === 0) {
    const why = result.err
      .trim()
      .split("\n")
      .pop()
      ?.replace(/^pipe:0: /, "")
      .slice(0, 160);
    throw refuse(
      "invalid_audio",
      `The ${container.toUpperCase()} file could not be decoded${samples === 0 && result.code === 0 ? ": it holds no audio" : why ? ` (${why})` : ""}.`,
    );
  }
  const pcm = new Int16Array(samples);
  for (let i = 0; i < samples; i++) pcm[i] = result.out.readInt16LE(i * 2);
  return pcm;
}
