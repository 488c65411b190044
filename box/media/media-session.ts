// Implements: docs/architecture.md "The media path of one live session": frame clock -> encoders -> peer.
// Paces one frame source onto the peer in real time: video frame i and its 40 ms of audio leave
// together, with absolute due times so timer lateness never accumulates.
import type { MediaStreamTrack } from "werift";
import { AvClock, type AvTick } from "./av-clock.ts";
import { FfmpegEncoder } from "./encoder.ts";
import { OpusRtpEncoder } from "./opus-rtp.ts";

export type SourceFrame = {
  /** width * height * 3/2 bytes, I420. */
  i420: Uint8Array;
  /** One frame of audio: sampleRate / fps samples (1920 at 48 kHz, 25 fps), mono. */
  pcm48k: Int16Array;
};
/** Called once per index, in order; a frame is fully consumed before the next call, so buffers may be reused. */
export type FramePull = (frameIndex: number) => SourceFrame;

export type MediaSessionOptions = {
  width?: number;
  height?: number;
  fps?: number;
  ffmpegPath?: string;
  videoBitrate?: string;
  gop?: number;
  fastStartFrames?: number;
  /** A started video encoder to use (a warm spare, see encoder-spare.ts) instead of a new one. */
  videoEncoder?: () => Promise<FfmpegEncoder>;
  /** Told about every encoder restart (for logs). */
  onEncoderRestart?: (why: string) => void;
  onSourceError?: (err: Error) => void;
  /** Each RTP packet handed to the peer, with the frame (video) or 20 ms chunk (audio) it carries. */
  onSend?: (kind: "video" | "audio", index: number) => void;
  /** A client that has not connected by then is given up (default 20 s). */
  connectTimeoutMs?: number;
  /** After connect, media waits at most this long for the video encoder to be warm (default 2 s). */
  warmUpWaitMs?: number;
  /** The session ended by itself (peer gone, never connected); not called after close(). */
  onEnded?: (reason: string) => void;
};

export type MediaPeer = {
  video: MediaStreamTrack;
  audio: MediaStreamTrack;
  /** Media starts when this resolves, so the first frame out is a keyframe the client can decode. */
  connected: Promise<void>;
  /** Resolves when the connection is gone; the session then closes itself. */
  ended?: Promise<unknown>;
  close(): void;
};

export type MediaCounters = {
  framesSent: number;
  audioChunksSent: number;
  framesDropped: number;
  badFrames: number;
  sourceErrors: number;
  keyframesSent: number;
  videoPackets: number;
  audioPackets: number;
  videoRestarts: number;
  stalls: number;
};

export class MediaSession {
  private clock: AvClock | null = null;
  private connectTimer: NodeJS.Timeout | undefined;
  private timeout: NodeJS.Timeout | null = null;
  /** Audio chunks the source gave too few samples for, padded with silence (reused). */
  private padded: Int16Array | null = null;
  private lastGood: SourceFrame | null = null;
  private sourceErrors = 0;
  private closed = false;
  private badFrames = 0;
  private current: { index: number; frame: SourceFrame } | null = null; // audio and video both read it
  private readonly now = (): number => performance.now();
  /** Resolves when media starts flowing (the peer connected); rejects if it never does. */
  readonly started: Promise<void>;

  private constructor(
    private readonly peer: MediaPeer,
    private readonly source: FramePull,
    private readonly video: FfmpegEncoder,
    private readonly audio: OpusRtpEncoder,
    private readonly options: MediaSessionOptions,
  ) {
    const limit = options.connectTimeoutMs ?? 20_000;
    const timeout = new Promise<never>((_, reject) => {
      this.connectTimer = setTimeout(() => reject(new Error(`the client did not connect within ${limit} ms`)), limit);
    });
    this.started = Promise.race([peer.connected, timeout]).then(async () => {
      clearTimeout(this.connectTimer);
      // An ffmpeg still starting (a loaded machine) would queue the first frames and drop the
      // rest: the clock starts once it is warm, so frame 0 leaves at once as a keyframe.
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([video.ready, new Promise((r) => (waited = setTimeout(r, options.warmUpWaitMs ?? 2_000)))]);
      clearTimeout(waited);
      if (this.closed) throw new Error("media session closed before the peer connected");
      // Opus is encoded and sent in the wake-up that hands a chunk over; a VP8 frame leaves once
      // ffmpeg encoded it (1-5 ms later): no audio lead is needed to keep them together.
      this.clock = new AvClock(this.now(), { fps: options.fps });
      this.loop();
    });
    this.started.catch((err: Error) => this.end(err.message));
    peer.ended?.then((how) => this.end(`peer ${how}`));
  }

  /** Takes (or spawns) the video encoder now, so it is warm while ICE/DTLS runs; paces media once connected. */
  static async start(peer: MediaPeer, source: FramePull, options: MediaSessionOptions = {}): Promise<MediaSession> {
    const video = await (options.videoEncoder?.() ??
      FfmpegEncoder.start({
        ffmpegPath: options.ffmpegPath,
        fps: options.fps,
        width: options.width,
        height: options.height,
        videoBitrate: options.videoBitrate,
        gop: options.gop,
        fastStartFrames: options.fastStartFrames,
      }));
    video.attach(
      (packet, index) => {
        options.onSend?.("video", index);
        peer.video.writeRtp(packet);
      },
      (_, why) => options.onEncoderRestart?.(why),
    );
    let audio: OpusRtpEncoder;
    try {
      audio = new OpusRtpEncoder({
        onRtp: (packet, index) => {
          options.onSend?.("audio", index);
          peer.audio.writeRtp(packet);
        },
      });
    } catch (err) {
      video.close(); // never a process left behind by a session that did not start
      throw err;
    }
    return new MediaSession(peer, source, video, audio, options);
  }

  get counters(): MediaCounters {
    const v = this.video.counters;
    const a = this.audio.counters;
    return {
      framesSent: v.inputs,
      audioChunksSent: a.inputs,
      framesDropped: v.dropped,
      badFrames: this.badFrames,
      sourceErrors: this.sourceErrors,
      keyframesSent: v.keyframes,
      videoPackets: v.packets,
      audioPackets: a.packets,
      videoRestarts: v.restarts,
      stalls: this.clock?.stalls ?? 0,
    };
  }

  /** The encoder child now (Opus runs in the box), for tests and health reporting. */
  get encoderPid(): number | null {
    return this.video.pid;
  }

  /** Synchronous teardown of the loop, both encoders and the peer. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.connectTimer);
    if (this.timeout) clearTimeout(this.timeout);
    this.video.close();
    this.audio.close();
    this.peer.close();
    this.current = null;
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.close();
    this.options.onEnded?.(reason);
  }

  private loop = (): void => {
    this.timeout = null;
    if (this.closed || !this.clock) return;
    for (const tick of this.clock.tick(this.now())) this.emit(tick);
    // One timer per due instant (every 20 ms), never a spin: setTimeout's 1-2 ms overshoot is
    // harmless because due times are absolute (lateness does not accumulate) and audio and video
    // of one instant leave in the same wake-up.
    const wait = this.clock.nextDueMs() - this.now();
    this.timeout = setTimeout(this.loop, Math.max(0, wait));
  };

  private emit(tick: AvTick): void {
    const frame = this.frame(tick.frame);
    if (tick.kind === "video") {
      if (frame.i420.byteLength === this.frameBytes()) this.video.write(frame.i420, tick.frame);
      else this.badFrames++;
      return;
    }
    const pcm = frame.pcm48k;
    if (pcm.length >= tick.offset + tick.samples) {
      // A view, no copy: the encoder copies it into its own pooled buffer.
      this.audio.write(new Uint8Array(pcm.buffer, pcm.byteOffset + tick.offset * 2, tick.samples * 2), tick.chunk);
      return;
    }
    const chunk = this.padded?.length === tick.samples ? this.padded : (this.padded = new Int16Array(tick.samples));
    chunk.fill(0); // silence where the source gave too few samples
    chunk.set(pcm.subarray(tick.offset, Math.min(pcm.length, tick.offset + tick.samples)));
    this.audio.write(new Uint8Array(chunk.buffer), tick.chunk);
  }

  private frame(index: number): SourceFrame {
    if (this.current?.index !== index) this.current = { index, frame: this.pull(index) };
    return this.current.frame;
  }

  /** A throwing source must not stop the stream: repeat the last picture, in silence. */
  private pull(index: number): SourceFrame {
    try {
      this.lastGood = this.source(index);
      return this.lastGood;
    } catch (err) {
      this.sourceErrors++;
      this.options.onSourceError?.(err as Error);
      const silence = new Int16Array(this.clock!.samplesPerFrame);
      return { i420: this.lastGood?.i420 ?? new Uint8Array(0), pcm48k: silence };
    }
  }

  private frameBytes(): number {
    return ((this.options.width ?? 512) * (this.options.height ?? 512) * 3) / 2;
  }
}
