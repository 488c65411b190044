// Implements: DESIGN "The media path of one live session": encoder (ffmpeg: VP8 + Opus -> RTP on loopback).
// One ffmpeg per stream: raw I420 or s16le PCM on stdin, RTP to a loopback UDP port we own.
// A crashed ffmpeg is restarted (its first frame is a keyframe); the RTP timeline continues.
import { spawn, type ChildProcess } from "node:child_process";
import dgram from "node:dgram";
import { accessSync, constants } from "node:fs";
import { adoptChild } from "./child-reaper.ts";
import { diesWithParent } from "./parent-death.ts";
import { isVp8KeyframeStart, RtpRetimer } from "./rtp-retimer.ts";

export type EncoderKind = "video" | "audio";

export type EncoderOptions = {
  kind: EncoderKind;
  /** Called with each RTP packet, retimed onto the session timeline, and the source index it carries. */
  onRtp: (packet: Buffer, index: number) => void;
  ffmpegPath?: string;
  width?: number;
  height?: number;
  fps?: number;
  /** Input PCM rate (mono s16le); Opus always leaves at 48 kHz stereo. */
  sampleRate?: number;
  videoBitrate?: string;
  /** Keyframe interval in frames. */
  gop?: number;
  /** For the first N frames of each process a keyframe every 5, so a receiver that missed one locks on fast. */
  fastStartFrames?: number;
  /** Inputs queued in the pipe beyond this are dropped (a stalled ffmpeg must not grow memory). */
  maxQueuedInputs?: number;
  onRestart?: (restarts: number, lastError: string) => void;
};

export type EncoderCounters = {
  inputs: number;
  dropped: number;
  packets: number;
  keyframes: number;
  restarts: number;
};

export class FfmpegEncoder {
  readonly counters: EncoderCounters = { inputs: 0, dropped: 0, packets: 0, keyframes: 0, restarts: 0 };
  private child: ChildProcess | null = null;
  private closed = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private backoffMs = 100;
  private stderrTail = "";
  private sender: number | null = null; // ffmpeg's source port, to ignore strangers on loopback
  private readonly retimer: RtpRetimer;

  private constructor(
    private readonly options: EncoderOptions,
    private readonly socket: dgram.Socket,
  ) {
    const fps = options.fps ?? 25;
    this.retimer = new RtpRetimer(options.kind === "video" ? 90_000 / fps : 960);
    socket.on("message", (packet, from) => this.onPacket(packet, from.port));
    // A socket error must never become an uncaught exception that ends the box.
    socket.on("error", (err) => console.error(JSON.stringify({ level: "warn", msg: "encoder RTP socket error", kind: options.kind, error: err.message })));
  }

  static async start(options: EncoderOptions): Promise<FfmpegEncoder> {
    const socket = dgram.createSocket({ type: "udp4", recvBufferSize: 1 << 20 });
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.bind(0, "127.0.0.1", () => resolve());
    });
    const encoder = new FfmpegEncoder(options, socket);
    try {
      // Checked here: behind the parent-death wrapper a missing binary would spawn fine and crash-loop.
      if (encoder.ffmpegPath.includes("/")) accessSync(encoder.ffmpegPath, constants.X_OK);
      const child = encoder.spawn();
      await new Promise((resolve, reject) => child.once("spawn", resolve).once("error", reject));
    } catch (err) {
      encoder.close();
      throw new Error(`cannot start ${encoder.ffmpegPath}: ${(err as Error).message}`);
    }
    return encoder;
  }

  private get ffmpegPath(): string {
    return this.options.ffmpegPath ?? "/usr/bin/ffmpeg";
  }

  /** The ffmpeg process id now (null while restarting or closed). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Hands one input (a whole I420 frame, or a PCM chunk) for source index `index`. */
  write(data: Uint8Array, index: number): boolean {
    const stdin = this.child?.stdin;
    const limit = (this.options.maxQueuedInputs ?? 4) * data.byteLength;
    if (!stdin || !stdin.writable || stdin.writableLength > limit) {
      this.counters.dropped++;
      return false;
    }
    this.retimer.wrote(index);
    stdin.write(Buffer.from(data)); // a copy: the pipe may queue it while the caller reuses its buffer
    this.counters.inputs++;
    return true;
  }

  /** Synchronous: kills the child and closes the socket. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.child?.kill("SIGKILL");
    this.child = null;
    this.socket.close();
  }

  private spawn(): ChildProcess {
    this.retimer.newSource();
    this.sender = null;
    this.startedAt = Date.now();
    const { command, args } = diesWithParent(this.ffmpegPath, this.args());
    const child = spawn(command, args, { stdio: ["pipe", "ignore", "pipe"] });
    adoptChild(child);
    this.child = child;
    child.stdin!.on("error", () => {}); // EPIPE when ffmpeg dies; the exit handler restarts it
    child.stderr!.on("data", (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-2000)));
    // 'exit' may not follow a spawn 'error': whichever comes first restarts the encoder.
    child.on("error", (err) => this.onGone(child, `spawn failed: ${err.message}`));
    child.on("exit", (code, signal) => this.onGone(child, `exited (${signal ?? code})`));
    return child;
  }

  private onGone(child: ChildProcess, how: string): void {
    if (this.closed || this.child !== child) return;
    this.child = null;
    this.counters.restarts++;
    this.options.onRestart?.(this.counters.restarts, `ffmpeg ${this.options.kind} ${how}: ${this.stderrTail.trim().slice(-300)}`);
    // A process that dies right after start is crash-looping: back off up to 5 s.
    this.backoffMs = Date.now() - this.startedAt < 2_000 ? Math.min(this.backoffMs * 2, 5_000) : 100;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.closed) this.spawn();
    }, this.backoffMs);
  }

  private onPacket(packet: Buffer, port: number): void {
    if (this.closed) return;
    this.sender ??= port;
    const index = port === this.sender ? this.retimer.retime(packet) : null;
    if (index === null) return;
    this.counters.packets++;
    if (this.options.kind === "video" && isVp8KeyframeStart(packet)) this.counters.keyframes++;
    this.options.onRtp(packet, index);
  }

  private args(): string[] {
    const o = this.options;
    const out = ["-f", "rtp", "-pkt_size", "1200", `rtp://127.0.0.1:${(this.socket.address() as { port: number }).port}`];
    // Without the probe limits ffmpeg reads ~1 s of input before the first packet leaves.
    // Not "-fflags nobuffer": it discards the probed input, so frame 0 (the keyframe) was lost.
    const head = ["-hide_banner", "-loglevel", "error", "-nostats", "-nostdin", "-probesize", "32", "-analyzeduration", "0"];
    if (o.kind === "audio") {
      return [
        ...head,
        ...["-f", "s16le", "-ar", String(o.sampleRate ?? 48_000), "-ac", "1", "-i", "pipe:0"],
        ...["-c:a", "libopus", "-ar", "48000", "-ac", "2", "-application", "lowdelay", "-frame_duration", "20"],
        ...out,
      ];
    }
    const fast = o.fastStartFrames ?? 25;
    return [
      ...head,
      ...["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", `${o.width ?? 512}x${o.height ?? 512}`, "-r", String(o.fps ?? 25), "-i", "pipe:0"],
      ...["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", o.videoBitrate ?? "1M", "-g", String(o.gop ?? 25)],
      ...["-lag-in-frames", "0", "-error-resilient", "1", "-auto-alt-ref", "0", "-threads", "1"],
      ...(fast > 0 ? ["-force_key_frames", `expr:lt(n,${fast})*not(mod(n,5))`] : []),
      ...out,
    ];
  }
}
