// Implements: docs/api-notes.md "Perception": the camera's VP8 decoded by an ffmpeg child at a low
// rate into JPEGs (longest side <= 768 px), in memory only. Frames reach it as IVF on stdin; it
// keeps at most `fps` pictures a second and writes them to stdout as JPEG. A child that dies is not
// restarted (the picture goes; the avatar is not touched); close() kills it, as the session's end does.
import { spawn, type ChildProcess } from "node:child_process";
import { adoptChild } from "../media/child-reaper.ts";
import { diesWithParent } from "../media/parent-death.ts";
import { ivfFileHeader, ivfFrameHeader } from "./ivf.ts";
import { JpegSplitter } from "./jpeg-splitter.ts";
import { vp8KeyframeSize, type Vp8Frame } from "./vp8-frames.ts";

/** Longest side of the pictures sent to a model. */
export const PICTURE_MAX_SIDE = 768;
/** A camera frame larger than this (pixels) is not decoded: the picture is "none", the avatar unaffected. */
export const MAX_SOURCE_PIXELS = 4096 * 2304;
/** Bytes of VP8 queued in ffmpeg's pipe beyond which frames are dropped (a stalled child must not grow memory). */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

export interface FrameDecoderOptions {
  ffmpegPath?: string;
  /** Pictures a second at most (<= 2). */
  fps?: number;
  onPicture(jpeg: Buffer): void;
  /** Why the decoder gave up (a frame too large, the child failed): logged by the caller, once. */
  onGiveUp(why: string): void;
}

export class FrameDecoder {
  private child: ChildProcess | null = null;
  private firstTs = 0;
  private closed = false;
  private size: { width: number; height: number } | null = null;

  constructor(private readonly o: FrameDecoderOptions) {}

  /** The child's process id while it runs (tests check it ends with the session). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  push(frame: Vp8Frame): void {
    if (this.closed) return;
    const size = vp8KeyframeSize(frame.data);
    if (size) {
      if (size.width * size.height > MAX_SOURCE_PIXELS || size.width === 0 || size.height === 0) {
        return this.giveUp(`the camera's ${size.width}x${size.height} frames are too large to look at`);
      }
      // The first keyframe starts the child. A keyframe of another size (the camera swapped for a
      // screen, a resized shared window) starts a fresh one: ffmpeg's IVF input keeps the size of
      // its header, so the old child would go on scaling to the first size (measured: a 1280x720
      // screen after a 640x480 camera came out squashed to 640x480).
      const resized = this.size !== null && (size.width !== this.size.width || size.height !== this.size.height);
      if (this.child && resized) this.stopChild();
      if (!this.child) this.start(size, frame.timestamp);
      this.size = size;
    }
    const stdin = this.child?.stdin;
    if (!stdin || !this.size || stdin.destroyed) return;
    if (stdin.writableLength > MAX_QUEUED_BYTES) return;
    stdin.write(Buffer.concat([ivfFrameHeader(frame.data.length, frame.timestamp - this.firstTs), frame.data]));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopChild();
  }

  /** Kills the child (its exit is not a failure: it is no longer `this.child`). */
  private stopChild(): void {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      child.stdin?.destroy();
      child.kill("SIGKILL");
    }
  }

  private start(size: { width: number; height: number }, ts: number): void {
    this.firstTs = ts;
    const fps = Math.min(2, Math.max(0.1, this.o.fps ?? 2));
    const side = PICTURE_MAX_SIDE;
    const args = [
      "-hide_banner",
      "-loglevel",
      "error",
      "-nostdin",
      // The IVF header says all there is to know: no probing (which would hold pictures back ~5 s).
      "-probesize",
      "32",
      "-analyzeduration",
      "0",
      "-f",
      "ivf",
      "-i",
      "pipe:0",
      "-vf",
      `fps=${fps},scale=w='min(${side},iw)':h='min(${side},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2`,
      "-c:v",
      "mjpeg",
      "-q:v",
      "5",
      "-f",
      "image2pipe",
      "pipe:1",
    ];
    const { command, args: wrapped } = diesWithParent(this.o.ffmpegPath ?? "ffmpeg", args);
    const child = spawn(command, wrapped, { stdio: ["pipe", "pipe", "pipe"] });
    adoptChild(child);
    this.child = child;
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-400)));
    // One splitter per child: a killed child's last partial picture must not join the next one's.
    const splitter = new JpegSplitter((jpeg) => !this.closed && this.child === child && this.o.onPicture(jpeg));
    child.stdout!.on("data", (d: Buffer) => splitter.push(d));
    child.stdin!.on("error", () => {}); // the child went: reported by its exit
    child.on("error", (err) => this.giveUp(`the decoder could not start: ${err.message}`));
    child.once("exit", (code, signal) => {
      if (this.child === child && !this.closed)
        this.giveUp(`the decoder stopped (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n").pop() ?? ""}`);
    });
    child.stdin!.write(ivfFileHeader(size.width, size.height));
  }

  private giveUp(why: string): void {
    if (this.closed) return;
    this.close();
    this.o.onGiveUp(why);
  }
}
