// Implements: docs/architecture.md "The media path of one live session": the video encoder (ffmpeg: VP8 -> RTP
// on loopback; Opus is encoded in the box, see opus-rtp.ts). Raw I420 on stdin, RTP to a loopback
// UDP port we own. A crashed ffmpeg is restarted (its first frame is a keyframe); the RTP timeline
// continues. Each process is handed one warm-up frame at spawn (its output is dropped), so ffmpeg
// has probed its input and set up libvpx before the client connects: the first real frame leaves
// at once, as a keyframe. An encoder may be started before its session exists (a warm spare,
// see encoder-spare.ts) and attached to it later.
import { spawn, type ChildProcess } from "node:child_process";
import dgram from "node:dgram";
import { accessSync, constants } from "node:fs";
import type { Writable } from "node:stream";
import { adoptChild } from "./child-reaper.ts";
import { diesWithParent } from "./parent-death.ts";
import { isVp8KeyframeStart, RtpRetimer } from "./rtp-retimer.ts";
import { log } from "../../shared/util/log.ts";

export type RtpSink = (packet: Buffer, index: number) => void;
export type RestartListener = (restarts: number, lastError: string) => void;

export type EncoderOptions = {
  /** Called with each RTP packet, retimed onto the session timeline, and the source index it carries (or given later to attach()). */
  onRtp?: RtpSink;
  ffmpegPath?: string;
  width?: number;
  height?: number;
  fps?: number;
  videoBitrate?: string;
  /** libvpx speed (0-16; higher is cheaper). */
  cpuUsed?: number;
  /** Keyframe interval in frames. */
  gop?: number;
  /** For the first N frames of each process a keyframe every 5, so a receiver that missed one locks on fast. */
  fastStartFrames?: number;
  /** Inputs queued in the pipe beyond this are dropped (a stalled ffmpeg must not grow memory). */
  maxQueuedInputs?: number;
  onRestart?: RestartListener;
};

export type EncoderCounters = {
  inputs: number;
  dropped: number;
  packets: number;
  keyframes: number;
  restarts: number;
  /** Packets of the warm-up input (or not RTP), dropped before the peer. */
  warmUpPackets: number;
};

/** VP8 for a 512x512 talking head at 25 fps: libvpx's cheapest realtime speed, and macroblocks that barely change skipped. */
export const VP8_DEFAULTS = { bitrate: "1M", cpuUsed: 16, staticThresh: 200 } as const;
/** Warm-up frames handed to each video process at spawn; their packets never leave. */
export const VIDEO_WARM_UP_FRAMES = 1;

/**
 * Copies each input into a reused buffer that returns to the pool once the pipe has taken it:
 * no allocation per frame, and the caller may reuse its own buffer as soon as write() returns.
 */
export class InputPool {
  private readonly free: Buffer[] = [];
  /** Buffers created so far (stays small: the pipe's queue is bounded by the caller). */
  allocations = 0;

  write(sink: Writable, data: Uint8Array): boolean {
    let buf = this.free.pop();
    if (!buf || buf.byteLength !== data.byteLength) {
      buf = Buffer.allocUnsafeSlow(data.byteLength);
      this.allocations++;
    }
    buf.set(data);
    const taken = buf;
    // Called once the bytes are written to the pipe (or the write failed): only then is it free.
    return sink.write(taken, () => this.free.push(taken));
  }
}

export class FfmpegEncoder {
  readonly counters: EncoderCounters = { inputs: 0, dropped: 0, packets: 0, keyframes: 0, restarts: 0, warmUpPackets: 0 };
  private child: ChildProcess | null = null;
  private closed = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private backoffMs = 100;
  private stderrTail = "";
  private sender: number | null = null; // ffmpeg's source port, to ignore strangers on loopback
  private readonly retimer: RtpRetimer;
  private readonly pool = new InputPool();
  private warmed: () => void = () => {};
  /** Resolves once the first process has encoded its warm-up frame. */
  readonly ready = new Promise<void>((resolve) => (this.warmed = resolve));

  private constructor(
    private readonly options: EncoderOptions,
    private readonly socket: dgram.Socket,
  ) {
    this.retimer = new RtpRetimer(90_000 / (options.fps ?? 25));
    socket.on("message", (packet, from) => this.onPacket(packet, from.port));
    // A socket error must never become an uncaught exception that ends the box.
    socket.on("error", (err) => log.warn("encoder RTP socket error", { error: err.message }));
  }

  static async start(options: EncoderOptions): Promise<FfmpegEncoder> {
    const socket = dgram.createSocket({ type: "udp4", recvBufferSize: 1 << 20 });
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.bind(0, "127.0.0.1", () => resolve());
    });
    const encoder = new FfmpegEncoder({ ...options }, socket); // its own copy: attach() changes it
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

  /** Hands the encoder to its session: packets go to `onRtp` from now on (none leave before). */
  attach(onRtp: RtpSink, onRestart?: RestartListener): void {
    this.options.onRtp = onRtp;
    this.options.onRestart = onRestart;
  }

  /** The ffmpeg process id now (null while restarting or closed). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Hands one input (a whole I420 frame, or a PCM chunk) for source index `index`. */
  write(data: Uint8Array, index: number): boolean {
    const stdin = this.child?.stdin;
    // The warm-up frame may still sit in the pipe of a process that is starting: not counted.
    const limit = ((this.options.maxQueuedInputs ?? 4) + VIDEO_WARM_UP_FRAMES) * data.byteLength;
    if (!stdin?.writable || stdin.writableLength > limit) {
      this.counters.dropped++;
      return false;
    }
    this.retimer.wrote(index);
    this.pool.write(stdin, data); // a pooled copy: the pipe may queue it while the caller reuses its buffer
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
    this.retimer.newSource(VIDEO_WARM_UP_FRAMES);
    this.sender = null;
    this.startedAt = Date.now();
    const { command, args } = diesWithParent(this.ffmpegPath, this.args());
    const child = spawn(command, args, { stdio: ["pipe", "ignore", "pipe"] });
    adoptChild(child);
    this.child = child;
    child.stdin!.on("error", () => {}); // EPIPE when ffmpeg dies; the exit handler restarts it
    for (let i = 0; i < VIDEO_WARM_UP_FRAMES; i++) this.pool.write(child.stdin!, this.warmUpFrame());
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
    this.options.onRestart?.(this.counters.restarts, `ffmpeg ${how}: ${this.stderrTail.trim().slice(-300)}`);
    // A process that dies right after start is crash-looping: back off up to 5 s.
    this.backoffMs = Date.now() - this.startedAt < 2_000 ? Math.min(this.backoffMs * 2, 5_000) : 100;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.closed) this.spawn();
    }, this.backoffMs);
  }

  /** Mid grey: any picture will do, the frames after it are forced keyframes. */
  private warmUpFrame(): Uint8Array {
    const o = this.options;
    return new Uint8Array(((o.width ?? 512) * (o.height ?? 512) * 3) / 2).fill(128);
  }

  private onPacket(packet: Buffer, port: number): void {
    if (this.closed) return;
    this.sender ??= port;
    if (port !== this.sender) return;
    this.warmed();
    const index = this.retimer.retime(packet);
    if (index === null) {
      this.counters.warmUpPackets++;
      return;
    }
    const onRtp = this.options.onRtp;
    if (!onRtp) return; // not attached yet: nothing was written but the warm-up, so nothing to lose
    this.counters.packets++;
    if (isVp8KeyframeStart(packet)) this.counters.keyframes++;
    onRtp(packet, index);
  }

  private args(): string[] {
    const o = this.options;
    const out = ["-f", "rtp", "-pkt_size", "1200", `rtp://127.0.0.1:${(this.socket.address() as { port: number }).port}`];
    // Without the probe limits ffmpeg reads ~1 s of input before the first packet leaves.
    // Not "-fflags nobuffer": it discards the probed input, so frame 0 (the keyframe) was lost.
    const head = ["-hide_banner", "-loglevel", "error", "-nostats", "-nostdin", "-probesize", "32", "-analyzeduration", "0"];
    const fast = o.fastStartFrames ?? 25;
    const w = VIDEO_WARM_UP_FRAMES; // real frame r is ffmpeg's frame n = r + w
    // The first real frame is always a keyframe; then one every 5 for `fast` frames.
    const keys = fast > 0 ? `gte(n,${w})*lt(n-${w},${fast})*not(mod(n-${w},5))` : `eq(n,${w})`;
    return [
      ...head,
      ...["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", `${o.width ?? 512}x${o.height ?? 512}`, "-r", String(o.fps ?? 25), "-i", "pipe:0"],
      ...[
        "-c:v",
        "libvpx",
        "-deadline",
        "realtime",
        "-cpu-used",
        String(o.cpuUsed ?? VP8_DEFAULTS.cpuUsed),
        "-static-thresh",
        String(VP8_DEFAULTS.staticThresh),
      ],
      ...["-b:v", o.videoBitrate ?? VP8_DEFAULTS.bitrate, "-g", String(o.gop ?? 25)],
      ...["-lag-in-frames", "0", "-error-resilient", "1", "-auto-alt-ref", "0", "-threads", "1"],
      ...["-force_key_frames", `expr:${keys}`],
      ...out,
    ];
  }
}
