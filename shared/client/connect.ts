// Implements: POST /connect from a browser RTCPeerConnection (injectable, so Node can pass
// @roamhq/wrtc's or werift's): a receive-only offer with gathered candidates, the answer applied,
// audio and video on ONE media element, play() called here, a refused autoplay reported as an
// event with resumeMedia() to call from a click, and the first decoded frame as a timing mark.
import { AvatarApiError } from "./errors.ts";
import { Emitter, type Handlers } from "./events.ts";
import type { HttpCore } from "./http.ts";
import { now, type TimingMark } from "./socket-base.ts";
import type { ClientContext, ConnectAnswer } from "./types.ts";

/** The part of an HTMLVideoElement used here (tests pass a stand-in). */
export interface MediaElementLike {
  srcObject: unknown;
  muted: boolean;
  autoplay?: boolean;
  playsInline?: boolean;
  play(): Promise<void> | void;
}

type PeerCtor = new (config?: RTCConfiguration) => RTCPeerConnection;
type StreamCtor = new () => MediaStream;

export interface ConnectOptions {
  /** Where the avatar plays (sound and picture together). Leave out to handle `track` yourself. */
  video?: MediaElementLike | null;
  avatar?: string;
  /** Facts for the persona; default: this browser's time zone and locale. false: none. */
  clientContext?: ClientContext | false;
  RTCPeerConnection?: PeerCtor;
  MediaStream?: StreamCtor;
  rtcConfiguration?: RTCConfiguration;
  /** Longest wait for ICE gathering before the offer goes with what it has (default 3 s). */
  iceGatheringTimeoutMs?: number;
  /** Callbacks subscribed before anything starts (playback may be refused before connect() resolves). */
  on?: Handlers<LiveMediaEvents>;
  /**
   * An offer made ahead of time by prepareOffer() (its ICE candidates already gathered), so the
   * exchange starts at once. Used up by this call; a closed one is ignored.
   */
  prepared?: PreparedOffer | null;
  /**
   * The person's camera or screen, sent to the box (which looks at it: docs/api-notes.md
   * "Perception"): a video track, or a stream whose first video track is sent. `null` reserves the
   * slot without sending yet. Either way LiveMedia.setCamera() swaps, starts or stops it during the
   * call without renegotiation. Left out: the offer is receive-only, and a camera needs a new connect().
   */
  camera?: MediaStream | MediaStreamTrack | null;
}

/** Frames a second the camera or screen is sent at, at most (docs/api-notes.md "Perception"). */
export const CAMERA_MAX_FPS = 5;

/** The video track a camera option names (a stream's first video track), or null. */
function cameraTrack(camera: MediaStream | MediaStreamTrack | null | undefined): MediaStreamTrack | null {
  if (!camera) return null;
  if ("getVideoTracks" in camera) return camera.getVideoTracks()[0] ?? null;
  return camera.kind === "video" ? camera : null;
}

/** A receive-only offer with its candidates gathered, waiting for connect(). close() it if unused. */
export interface PreparedOffer {
  readonly pc: RTCPeerConnection;
  /** Resolves when the offer is set and gathering ended (or timed out). */
  readonly ready: Promise<void>;
  /** The sender of the person's camera or screen (its own sendonly m-line, after the avatar's); null: no camera slot. */
  readonly camera: RTCRtpSender | null;
  close(): void;
}

/**
 * Makes the offer of a coming connect() now (a page can do it while the person reads it): the
 * peer, its two receive-only transceivers, the offer and ICE gathering, which otherwise sit
 * between a click on "start" and the first request to the box.
 */
export function prepareOffer(
  options: Pick<ConnectOptions, "RTCPeerConnection" | "rtcConfiguration" | "iceGatheringTimeoutMs" | "camera"> = {},
): PreparedOffer {
  const Peer = options.RTCPeerConnection ?? (globalThis as { RTCPeerConnection?: PeerCtor }).RTCPeerConnection;
  if (!Peer)
    throw new AvatarApiError(0, "no_webrtc", "No RTCPeerConnection on this platform: pass one as options.RTCPeerConnection.", {
      source: "local",
    });
  const pc = new Peer(options.rtcConfiguration ?? {});
  pc.addTransceiver("video", { direction: "recvonly" });
  pc.addTransceiver("audio", { direction: "recvonly" });
  // The camera's m-line comes third: the avatar's video stays the offer's first video m-line.
  const track = cameraTrack(options.camera);
  // Sent at CAMERA_MAX_FPS at most: the box looks at <= 2 pictures a second, and every frame sent is
  // one it must decode (VP8 frames depend on the ones before). Fewer frames also leave the encoder
  // more bits for each, so a shared screen's text comes out sharper.
  const camera =
    options.camera === undefined
      ? null
      : pc.addTransceiver(track ?? "video", { direction: "sendonly", sendEncodings: [{ maxFramerate: CAMERA_MAX_FPS }] }).sender;
  const ready = pc
    .createOffer()
    .then((offer) => pc.setLocalDescription(offer))
    .then(() => gathered(pc, options.iceGatheringTimeoutMs ?? 3_000));
  ready.catch(() => undefined); // read by connect(); a failure there closes it
  return { pc, ready, camera, close: () => pc.close() };
}

export interface LiveMediaEvents {
  track: { track: MediaStreamTrack; stream: MediaStream | null };
  /** The element plays; `muted` true while sound is still held back. */
  playing: { muted: boolean };
  /** The browser refused to start playback (sound) without a click: call resumeMedia() from one. */
  autoplay_blocked: { message: string; videoPlaying: boolean };
  /**
   * `pc.connectionState` as it changes, and `closed` when the box ended the session (its DTLS
   * close_notify closes the transport at once while `connectionState` stays "connected").
   */
  connection_state: { state: string };
  timing: TimingMark;
}

const BLOCKED = "The browser will not start the avatar's sound without a click or tap; call resumeMedia() from one.";

export class LiveMedia {
  private readonly emitter = new Emitter<LiveMediaEvents>();
  answer: ConnectAnswer | null = null;
  stream: MediaStream | null = null;
  /** Non-null while playback waits for a click. */
  private blocked: { restoreMuted: boolean } | null = null;
  private statsTimer: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  /** The camera slot's sender (set by connectMedia); null when the call was opened without one. */
  cameraSender: RTCRtpSender | null = null;

  constructor(
    private readonly http: HttpCore,
    readonly pc: RTCPeerConnection,
    private readonly video: MediaElementLike | null,
    private readonly startedAt: number,
    private readonly MediaStreamCtor: StreamCtor | undefined,
    handlers?: Handlers<LiveMediaEvents>,
  ) {
    if (handlers) this.emitter.on(handlers);
    pc.addEventListener("track", (e) => {
      this.attach(e as RTCTrackEvent);
      this.watchTransport((e as RTCTrackEvent).receiver?.transport ?? null);
    });
    pc.addEventListener("connectionstatechange", () => {
      this.emitter.emit("connection_state", { state: pc.connectionState });
      if (pc.connectionState === "connected") this.mark("media_connected");
    });
  }

  on(map: Handlers<LiveMediaEvents>): () => void {
    return this.emitter.on(map);
  }

  /**
   * Sends another camera or screen track, or stops sending (null), in the slot opened by
   * connect({ camera }); no renegotiation (the box answers /connect only). The track is not
   * stopped here: the page owns it. Without a slot, a camera needs a new connect().
   */
  async setCamera(camera: MediaStream | MediaStreamTrack | null): Promise<void> {
    if (!this.cameraSender)
      throw new AvatarApiError(0, "no_camera_slot", "This call was opened without a camera slot: connect again with the camera option.", {
        source: "local",
      });
    await this.cameraSender.replaceTrack(cameraTrack(camera));
  }

  get autoplayBlocked(): boolean {
    return this.blocked !== null;
  }

  /** Starts playback (with sound) from a click or tap after `autoplay_blocked`. */
  async resumeMedia(): Promise<void> {
    const el = this.video;
    if (!el) return;
    if (this.blocked) el.muted = this.blocked.restoreMuted;
    await el.play();
    this.blocked = null;
    this.emitter.emit("playing", { muted: el.muted });
  }

  /** Ends the live session on the box (POST /disconnect) and closes the connection. */
  async disconnect(): Promise<void> {
    try {
      await this.http.json("POST", "/disconnect");
    } finally {
      this.close();
    }
  }

  /** Closes the peer connection only (the box notices and ends the session). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.pc.close();
    if (this.video && this.video.srcObject === this.stream) this.video.srcObject = null;
  }

  /** A timing mark, in ms since connect() began. */
  mark(mark: string): void {
    this.emitter.emit("timing", { mark, ms: Math.round(now() - this.startedAt) });
  }

  /** Polls decoded frames (works in every browser and in Node's WebRTC) for the first-frame mark. */
  watchFirstFrame(timeoutMs = 30_000): void {
    const until = now() + timeoutMs;
    this.statsTimer = setInterval(async () => {
      if (this.closed || now() > until) return void (this.statsTimer && clearInterval(this.statsTimer));
      const stats = await this.pc.getStats().catch(() => null);
      let decoded = 0;
      stats?.forEach((s: { type?: string; kind?: string; mediaType?: string; framesDecoded?: number }) => {
        if (s.type === "inbound-rtp" && (s.kind ?? s.mediaType) === "video") decoded += s.framesDecoded ?? 0;
      });
      if (decoded > 0 && this.statsTimer) {
        clearInterval(this.statsTimer);
        this.statsTimer = null;
        this.mark("first_frame");
      }
    }, 50);
    (this.statsTimer as { unref?: () => void }).unref?.();
  }

  private readonly watched = new Set<RTCDtlsTransport>();
  private endedByBox = false;

  /**
   * The box's goodbye (a DTLS close_notify) closes the transport: said once, unless we closed it.
   * Browsers fire `statechange`; libwebrtc in Node only updates `state`, so it is also looked at
   * once a second.
   */
  private watchTransport(t: RTCDtlsTransport | null): void {
    if (!t || this.watched.has(t)) return;
    this.watched.add(t);
    const look = () => {
      if (this.closed || this.endedByBox) return void clearInterval(poll);
      if (t.state !== "closed") return;
      this.endedByBox = true;
      clearInterval(poll);
      this.emitter.emit("connection_state", { state: "closed" });
    };
    const poll = setInterval(look, 1000);
    (poll as { unref?: () => void }).unref?.();
    if (typeof t.addEventListener === "function") t.addEventListener("statechange", look);
  }

  private attach(e: RTCTrackEvent): void {
    let stream = this.stream;
    if (!stream) stream = this.stream = this.MediaStreamCtor ? new this.MediaStreamCtor() : (e.streams?.[0] ?? null);
    // Both tracks on one stream, so one element plays both (separate elements doubled the sound elsewhere).
    if (stream && !stream.getTracks().includes(e.track)) stream.addTrack(e.track);
    this.emitter.emit("track", { track: e.track, stream });
    const el = this.video;
    if (!el || !stream || el.srcObject === stream) return;
    el.autoplay = true;
    el.playsInline = true;
    el.srcObject = stream;
    void this.play(el);
  }

  private async play(el: MediaElementLike): Promise<void> {
    try {
      await el.play();
      this.emitter.emit("playing", { muted: el.muted });
    } catch (err) {
      if ((err as { name?: string })?.name !== "NotAllowedError") return; // AbortError: a newer source replaced it
      // Sound refused: show the picture muted (always allowed) and wait for a click for the sound.
      this.blocked = { restoreMuted: el.muted };
      el.muted = true;
      const videoPlaying = await Promise.resolve()
        .then(() => el.play())
        .then(
          () => true,
          () => false,
        );
      this.emitter.emit("autoplay_blocked", { message: BLOCKED, videoPlaying });
    }
  }
}

function defaultContext(): ClientContext {
  const ctx: ClientContext = {};
  try {
    ctx.timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {}
  const lang = (globalThis as { navigator?: { language?: string } }).navigator?.language;
  if (lang) ctx.locale = lang;
  return ctx;
}

function gathered(pc: RTCPeerConnection, timeoutMs: number): Promise<void> {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && (clearTimeout(timer), resolve()));
  });
}

/** Opens the live session (closing any previous one on the box) and plays it. */
export async function connectMedia(http: HttpCore, options: ConnectOptions = {}): Promise<LiveMedia> {
  const g = globalThis as { RTCPeerConnection?: PeerCtor; MediaStream?: StreamCtor };
  const Peer = options.RTCPeerConnection ?? g.RTCPeerConnection;
  if (!Peer)
    throw new AvatarApiError(0, "no_webrtc", "No RTCPeerConnection on this platform: pass one as options.RTCPeerConnection.", {
      source: "local",
    });
  const startedAt = now();
  // A prepared offer without a camera slot cannot carry a camera asked for now.
  const fits = (p: PreparedOffer) => p.pc.signalingState === "have-local-offer" && (options.camera === undefined || p.camera !== null);
  const usable = options.prepared && fits(options.prepared) ? options.prepared : null;
  if (options.prepared && !usable) options.prepared.close();
  const prepared = usable ?? prepareOffer({ ...options, RTCPeerConnection: Peer });
  const pc = prepared.pc;
  const media = new LiveMedia(http, pc, options.video ?? null, startedAt, options.MediaStream ?? g.MediaStream, options.on);
  media.cameraSender = prepared.camera;
  if (prepared.camera && options.camera !== undefined) await prepared.camera.replaceTrack(cameraTrack(options.camera));
  try {
    await prepared.ready;
    media.mark("offer_ready");
    const offer = pc.localDescription!;
    const context = options.clientContext === false ? undefined : (options.clientContext ?? defaultContext());
    const answer = await http.json<ConnectAnswer>("POST", "/connect", {
      json: {
        sdp: offer.sdp,
        type: offer.type,
        ...(options.avatar ? { avatar: options.avatar } : {}),
        ...(context ? { client_context: context } : {}),
      },
    });
    media.answer = answer;
    media.mark("answer");
    await pc.setRemoteDescription({ type: "answer", sdp: answer.sdp });
    media.watchFirstFrame();
    return media;
  } catch (err) {
    media.close();
    throw err;
  }
}
