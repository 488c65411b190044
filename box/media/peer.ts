// Implements: Box: POST /connect (the WebRTC answer of one live session).
// werift answers the client's recvonly offer with one VP8 video and one Opus audio track; a
// further video m-line the client sends on (its camera or screen, docs/api-notes.md "Perception")
// is answered recvonly, or inactive when the box does not look.
import type { CandidatePair, MediaStreamTrack, RTCDtlsTransport, RTCIceServer, RTCPeerConnection, RTCRtpTransceiver } from "werift";
import { ApiError } from "../../shared/errors/api-error.ts";
import { keepEarlyDtls } from "./early-dtls.ts";
import { sayGoodbye } from "./goodbye.ts";
import { werift } from "./werift.ts"; // werift with correct sender-report clocks (see there)

const { MediaStream, useOPUS, useVP8 } = werift;

export type SessionDescriptionInit = { sdp: string; type: string };

export type AnswerPeerOptions = {
  /** Tests and single-machine use: only 127.0.0.1 candidates, no STUN. */
  loopbackOnly: boolean;
  /** STUN/TURN for deployments; ignored when loopbackOnly. */
  iceServers?: RTCIceServer[];
  /** ICE gathering is cut off after this; what was gathered is used. */
  gatheringTimeoutMs?: number;
  /** Receive a video track the client sends (camera or screen); false answers it inactive. Default false. */
  receiveClientVideo?: boolean;
};

export type AnswerPeer = {
  answer: { sdp: string; type: "answer" };
  video: MediaStreamTrack;
  audio: MediaStreamTrack;
  /** The transceiver the client's camera or screen arrives on; null when none is offered or the box does not look. */
  clientVideo: RTCRtpTransceiver | null;
  pc: RTCPeerConnection;
  /** Resolves when DTLS is up (media can flow); rejects if the peer fails or closes first. */
  connected: Promise<void>;
  /** Resolves once the connection failed or closed (by either side, or by close()). */
  ended: Promise<"failed" | "closed">;
  close(): void;
};

/** Refuses what werift would silently accept (it takes "garbage" as an empty session). */
export function checkOffer(offer: unknown): asserts offer is SessionDescriptionInit {
  const o = offer as Partial<SessionDescriptionInit> | null;
  const bad = (why: string): never => {
    throw new ApiError(400, "invalid_sdp", `The offer is not a usable WebRTC offer: ${why}.`);
  };
  if (!o || typeof o.sdp !== "string" || typeof o.type !== "string") bad("sdp and type must be strings");
  if (o!.type !== "offer") bad(`type must be "offer", got "${o!.type}"`);
  const sdp = o!.sdp!;
  if (!/^v=0\r?\n/.test(sdp)) bad("it must start with v=0");
  const video = sdp.split(/\r?\nm=/).find((section) => section.startsWith("video "));
  if (!video) bad("it has no video section");
  if (!/a=rtpmap:\d+ VP8\/90000/i.test(video!)) bad("its video section does not offer VP8");
  if (!/a=ice-ufrag:/.test(sdp) || !/a=ice-pwd:/.test(sdp)) bad("it has no ICE credentials");
  if (!/a=fingerprint:/.test(sdp)) bad("it has no DTLS fingerprint");
}

/**
 * The answer's DTLS role: passive (the box is the DTLS server) whenever the offer lets the
 * answerer choose (`actpass`, RFC 8842 §5.2). Then the client sends its ClientHello the moment its
 * own ICE is writable and the box answers at once. Answering `active` (werift's default) made the
 * box send its ClientHello as soon as the box's side of ICE was up, before libwebrtc's was; the
 * browser's first reply came ~100 ms later (measured: DTLS up 140 ms after the answer, 75 ms passive).
 */
export function dtlsServerAnswer(offerSdp: string, answerSdp: string): string {
  return /^a=setup:actpass\r?$/m.test(offerSdp) ? answerSdp.replace(/^a=setup:active(?=\r?$)/gm, "a=setup:passive") : answerSdp;
}

export async function createAnswerPeer(offer: unknown, options: AnswerPeerOptions): Promise<AnswerPeer> {
  checkOffer(offer);
  const loopback = options.loopbackOnly;
  const pc = new werift.RTCPeerConnection({
    codecs: { video: [useVP8()], audio: [useOPUS()] },
    iceServers: loopback ? [] : (options.iceServers ?? []),
    iceUseIpv6: false,
    ...(loopback
      ? {
          // werift gathers every host address it finds (an aiortc client was offered this
          // machine's 192.0.2.x too) and never loopback. So: no host addresses, loopback added,
          // every ICE socket bound to loopback, and only loopback pairs checked.
          iceUseIpv4: false,
          iceAdditionalHostAddresses: ["127.0.0.1"],
          iceInterfaceAddresses: { udp4: "127.0.0.1" },
          iceFilterCandidatePair: (pair: CandidatePair) => pair.localCandidate.host === "127.0.0.1",
        }
      : {}),
  });
  let closed = false;
  const life = watchLife(pc);
  const close = (): void => {
    if (closed) return;
    closed = true;
    // A client still there is told at once (RTCP BYE, DTLS close_notify), not by ICE consent
    // ~30 s later; one that already left or failed needs no word. The sockets close once the
    // goodbye is on the wire (one turn of the event loop), the peer counts as closed now.
    const goodbye = life.over ? Promise.resolve() : sayGoodbye(pc);
    life.end("closed");
    void goodbye
      .then(() => new Promise((r) => setImmediate(r)))
      .then(() => pc.close())
      .catch(() => {});
  };
  try {
    const video = new werift.MediaStreamTrack({ kind: "video" });
    const audio = new werift.MediaStreamTrack({ kind: "audio" });
    let answer: Awaited<ReturnType<RTCPeerConnection["createAnswer"]>>;
    let clientVideo: RTCRtpTransceiver | null = null;
    try {
      await pc.setRemoteDescription({ type: "offer", sdp: offer.sdp });
      // One stream id on both m-lines puts them in one sync group: the receiver lip-syncs them.
      const stream = new MediaStream([video, audio]);
      // addTrack reuses the client's recvonly transceivers, so the m-line order follows the offer.
      pc.addTrack(video, stream);
      if (/\r?\nm=audio /.test(offer.sdp)) pc.addTrack(audio, stream);
      clientVideo = clientVideoTransceiver(pc, video, options.receiveClientVideo ?? false);
      answer = await pc.createAnswer();
    } catch (err) {
      throw new ApiError(400, "invalid_sdp", `The offer could not be answered: ${(err as Error).message}`);
    }
    await pc.setLocalDescription({ type: "answer", sdp: dtlsServerAnswer(offer.sdp, answer.sdp) } as typeof answer);
    life.watchDtls(pc.dtlsTransports);
    for (const t of pc.dtlsTransports) keepEarlyDtls(t);
    await gatheringDone(pc, options.gatheringTimeoutMs ?? 5_000);
    const sdp = pc.localDescription?.sdp ?? "";
    if (!/a=candidate:/.test(sdp)) throw new Error("no network candidate could be gathered");
    return { answer: { sdp, type: "answer" }, video, audio, clientVideo, pc, connected: life.connected, ended: life.ended, close };
  } catch (err) {
    close();
    if (err instanceof ApiError) throw err;
    throw new ApiError(503, "media_unavailable", `The stream could not be set up: ${(err as Error).message}`);
  }
}

/**
 * The client's camera or screen: a video m-line other than the avatar's on which the client sends
 * (werift made it recvonly from the offer's sendonly). The first such one is kept; any further one,
 * and every one when the box does not look, is answered inactive so no client sends into the void.
 */
function clientVideoTransceiver(pc: RTCPeerConnection, avatarTrack: MediaStreamTrack, receive: boolean): RTCRtpTransceiver | null {
  let kept: RTCRtpTransceiver | null = null;
  for (const t of pc.getTransceivers()) {
    if (t.kind !== "video" || t.sender.track === avatarTrack || t.direction !== "recvonly") continue;
    if (receive && !kept) kept = t;
    else t.setDirection("inactive");
  }
  return kept;
}

function gatheringDone(pc: RTCPeerConnection, timeoutMs: number): Promise<void> {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(finish, timeoutMs);
    const sub = pc.iceGatheringStateChange.subscribe((state) => state === "complete" && finish());
    function finish(): void {
      clearTimeout(timer);
      sub.unSubscribe();
      resolve();
    }
  });
}

function watchLife(pc: RTCPeerConnection) {
  let connect!: () => void;
  let fail!: (err: Error) => void;
  let finish!: (how: "failed" | "closed") => void;
  const connected = new Promise<void>((resolve, reject) => ((connect = resolve), (fail = reject)));
  const ended = new Promise<"failed" | "closed">((resolve) => (finish = resolve));
  connected.catch(() => {}); // observed by callers that care; never an unhandled rejection
  let done = false;
  const end = (how: "failed" | "closed"): void => {
    if (done) return;
    done = true;
    sub.unSubscribe();
    fail(new Error(`peer ${how} before media could flow`)); // no-op once connected
    finish(how);
  };
  const sub = pc.connectionStateChange.subscribe((state) => {
    if (state === "connected") connect();
    else if (state === "failed" || state === "closed") end(state);
  });
  /**
   * A browser closing its connection (pc.close(), a closed tab) sends a DTLS close_notify. werift
   * marks that transport closed but leaves the peer's connectionState alone, so without this
   * the session would live on until the consent check gives up (~30 s).
   */
  const watchDtls = (transports: readonly RTCDtlsTransport[]): void => {
    for (const t of transports) t.onStateChange.subscribe((state) => (state === "closed" || state === "failed") && end(state));
  };
  return {
    connected,
    ended,
    end,
    watchDtls,
    /** Whether the peer already ended (failed, or closed by either side). */
    get over(): boolean {
      return done;
    },
  };
}
