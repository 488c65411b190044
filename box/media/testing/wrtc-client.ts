// A receiving WebRTC client for tests (Node, @roamhq/wrtc): recvonly offer, decoded frames and audio.
import wrtc from "@roamhq/wrtc";

export type ReceivedFrame = { at: number; width: number; height: number; data: Uint8Array };
export type FrameRecord = { at: number; width: number; height: number; meanY: number };
export type AudioChunk = { at: number; rms: number; sampleRate: number };
export type Box = { x: number; y: number; width: number; height: number };
export type Answerer = (offer: { sdp: string; type: string }) => Promise<{ sdp: string; type: string }>;

const { RTCPeerConnection, nonstandard } = wrtc as unknown as {
  RTCPeerConnection: typeof globalThis.RTCPeerConnection;
  nonstandard: {
    RTCVideoSink: new (track: MediaStreamTrack) => { onframe: unknown; stop(): void };
    RTCAudioSink: new (track: MediaStreamTrack) => { ondata: unknown; stop(): void };
  };
};

export class WrtcClient {
  /** Every decoded frame's metadata; pictures of the first and the last few are kept. */
  readonly frames: FrameRecord[] = [];
  readonly audio: AudioChunk[] = [];
  firstFrame: ReceivedFrame | null = null;
  readonly recent: ReceivedFrame[] = [];
  /** performance.now() when the offer was handed to the answerer (the POST /connect). */
  connectStartedAt = 0;
  private readonly sinks: { stop(): void }[] = [];
  private readonly pc: RTCPeerConnection;

  constructor(private readonly keepRecent = 8) {
    this.pc = new RTCPeerConnection({ iceServers: [] });
    this.pc.addTransceiver("video", { direction: "recvonly" });
    this.pc.addTransceiver("audio", { direction: "recvonly" });
    this.pc.ontrack = (event) => this.attach(event.track);
  }

  /** Offers, hands the offer to `answerer` (e.g. a POST to /connect), applies the answer. */
  async connect(answerer: Answerer): Promise<void> {
    await this.pc.setLocalDescription(await this.pc.createOffer());
    await new Promise<void>((resolve) => {
      if (this.pc.iceGatheringState === "complete") return resolve();
      this.pc.addEventListener("icegatheringstatechange", () => this.pc.iceGatheringState === "complete" && resolve());
    });
    const offer = this.pc.localDescription!;
    this.connectStartedAt = performance.now();
    const answer = await answerer({ sdp: offer.sdp, type: offer.type });
    await this.pc.setRemoteDescription(answer as RTCSessionDescriptionInit);
  }

  waitForFirstFrame(timeoutMs = 15_000): Promise<ReceivedFrame> {
    return this.until(() => this.firstFrame, timeoutMs, "no video frame was decoded");
  }

  /** Resolves with `probe()`'s first truthy value; polls, so it tolerates a loaded machine. */
  async until<T>(probe: () => T | null | undefined | false, timeoutMs: number, what: string): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value) return value;
      if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** RMS (16-bit scale) of the audio received over the last `windowMs`. */
  audioRmsOver(windowMs: number): number {
    const since = performance.now() - windowMs;
    const chunks = this.audio.filter((c) => c.at >= since);
    if (chunks.length === 0) return 0;
    return Math.sqrt(chunks.reduce((sum, c) => sum + c.rms * c.rms, 0) / chunks.length);
  }

  /** Frames decoded per second over the last `windowMs`. */
  fpsOver(windowMs: number): number {
    const since = performance.now() - windowMs;
    return (this.frames.filter((f) => f.at >= since).length * 1000) / windowMs;
  }

  /**
   * A/V offset per marker (a white frame and a beep onset on one timeline index), in ms:
   * beep onset time minus white frame time; positive means the audio is late.
   */
  measureAvOffset(): number[] {
    const flashes = this.frames.filter((f, i) => f.meanY > 200 && !(this.frames[i - 1]?.meanY > 200)).map((f) => f.at);
    const onsets: number[] = [];
    for (let i = 10; i < this.audio.length; i++) {
      const quietBefore = this.audio.slice(i - 10, i).every((c) => c.rms < 300);
      if (quietBefore && this.audio[i].rms >= 1500) onsets.push(this.audio[i].at);
    }
    const offsets: number[] = [];
    for (const flash of flashes) {
      const near = onsets.filter((t) => Math.abs(t - flash) < 500);
      if (near.length > 0) offsets.push(near.reduce((a, b) => (Math.abs(b - flash) < Math.abs(a - flash) ? b : a)) - flash);
    }
    return offsets;
  }

  /** The state of the client's DTLS transport ("closed" once the box said close_notify). */
  get dtlsState(): string {
    return this.pc.getReceivers()[0]?.transport?.state ?? "new";
  }

  close(): void {
    for (const sink of this.sinks) sink.stop();
    this.pc.close();
  }

  private attach(track: MediaStreamTrack): void {
    if (track.kind === "video") {
      const sink = new nonstandard.RTCVideoSink(track);
      sink.onframe = ({ frame }: { frame: { width: number; height: number; data: Uint8Array } }) => this.onFrame(frame);
      this.sinks.push(sink);
    } else {
      const sink = new nonstandard.RTCAudioSink(track);
      sink.ondata = (d: { samples: Int16Array; sampleRate: number }) => this.onAudio(d.samples, d.sampleRate);
      this.sinks.push(sink);
    }
  }

  private onFrame(frame: { width: number; height: number; data: Uint8Array }): void {
    const received = { at: performance.now(), width: frame.width, height: frame.height, data: Uint8Array.from(frame.data) };
    const center = { x: frame.width / 4, y: frame.height / 4, width: frame.width / 2, height: frame.height / 2 };
    this.frames.push({ at: received.at, width: frame.width, height: frame.height, meanY: meanLuma(received, center) });
    this.firstFrame ??= received;
    this.recent.push(received);
    if (this.recent.length > this.keepRecent) this.recent.shift();
  }

  private onAudio(samples: Int16Array, sampleRate: number): void {
    let sum = 0;
    for (const s of samples) sum += s * s;
    this.audio.push({ at: performance.now(), rms: Math.sqrt(sum / Math.max(1, samples.length)), sampleRate });
  }
}

/** Mean luma inside `box`. */
export function meanLuma(frame: ReceivedFrame, box: Box): number {
  let sum = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) sum += frame.data[y * frame.width + x];
  }
  return sum / (box.width * box.height);
}

/** Mean absolute luma difference between two frames inside `box` (0-255). */
export function regionDiff(a: ReceivedFrame, b: ReceivedFrame, box: Box): number {
  let sum = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) sum += Math.abs(a.data[y * a.width + x] - b.data[y * b.width + x]);
  }
  return sum / (box.width * box.height);
}
