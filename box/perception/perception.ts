// Implements: docs/api-notes.md "Perception": what one live session sees of the person. The
// client's camera or screen track is decoded at <= 2 pictures a second; only the latest JPEG is
// kept, in memory, until the session ends (never on disk, in a log or in the transcript). About
// once a second the face models look at it (present, looking, smiling; every two seconds while
// their answer holds steady, and not at all while the scene is still). A picture older than
// STALE_MS (a frozen or stopped track) or black counts as no picture.
import type { RTCRtpTransceiver } from "werift";
import sharp from "sharp";
import type { FaceLandmarker } from "../faces/face-landmarker.ts";
import { FrameDecoder } from "./frame-decoder.ts";
import { lookLine, lookOf, type Look } from "./face-look.ts";
import { Vp8FrameAssembler } from "./vp8-frames.ts";
import { log } from "../../shared/util/log.ts";

/** A picture older than this is not shown to a model: the track froze, stopped or was removed. */
export const STALE_MS = 3_000;
/** How often the face models look (ms), unless the options say otherwise. */
export const LOOK_EVERY_MS = 1_000;
/** Mean luma (0..255) below which a picture is black (a covered camera, a muted track). */
const BLACK_LUMA = 10;
/**
 * Longest side of the copy the face models look at. Half a 640x480 camera, so the JPEG is decoded
 * at half size (libjpeg's shrink-on-load); a face at a webcam's distance is still 80-120 px, which
 * the detector (256 px input) and the mesh (192 px crop) need no more than.
 */
const LOOK_SIDE = 320;
/**
 * A still scene needs no new look: when the picture's 16x16 grey thumbnail differs from the one the
 * face models last looked at by less than this (mean absolute levels), what they saw stands, for
 * up to STILL_MAX_MS. Camera noise averages out at that size; a person moving, leaving or turning
 * changes it by far more (a head turn: 6-15 levels).
 */
const STILL_LEVELS = 2.5;
/**
 * After this many looks in a row with the same answer (present, looking, smiling), the face models
 * look half as often (the scene moves, the person does not change: a camera drifting over a
 * face). The first different answer returns to every lookEveryMs.
 */
const STEADY_LOOKS = 3;
/** Even a still scene is looked at again this often. */
const STILL_MAX_MS = 5_000;
const THUMB = 16;
/** Keyframe requests (RTCP PLI) at most this often. */
const PLI_EVERY_MS = 1_000;

export interface PerceptionOptions {
  ffmpegPath?: string;
  /** The face models; absent: no embedded look (pictures only). */
  landmarker?: () => Promise<FaceLandmarker>;
  log?: (msg: string, detail?: Record<string, unknown>) => void;
  now?: () => number;
  /** How often the face models look (ms; default LOOK_EVERY_MS). */
  lookEveryMs?: number;
}

export interface Picture {
  jpeg: Buffer;
  at: number;
}

export interface Sighting extends Look {
  /** The picture this holds for. */
  at: number;
  /** When the face models last looked (a still scene keeps their answer). */
  lookedAt: number;
}

const defaultLog = (msg: string, detail: Record<string, unknown> = {}) => log.info(msg, detail);

export class Perception {
  private latest: Picture | null = null;
  private black = false;
  private sighting: Sighting | null = null;
  /** Since when no face has been seen while pictures came (null: someone is there, or no pictures). */
  private awaySince: number | null = null;
  private decoder: FrameDecoder | null = null;
  private looking = false;
  private lastLookAt = 0;
  private closed = false;
  private lastPli = 0;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly now: () => number;
  private readonly log: NonNullable<PerceptionOptions["log"]>;
  /** Pictures decoded so far (tests, benchmarks). */
  pictures = 0;
  /** Times the face models looked (tests, benchmarks). */
  looks = 0;
  /** Looks skipped because the scene had not changed (tests, benchmarks). */
  stillSkips = 0;
  /** Looks in a row (a still scene's skips included) whose answer was the one before's. */
  private sameAnswers = 0;
  /** The thumbnail of the picture the face models last looked at. */
  private lookedThumb: Float32Array | null = null;

  constructor(private readonly o: PerceptionOptions = {}) {
    this.now = o.now ?? Date.now;
    this.log = o.log ?? defaultLog;
  }

  /** Starts receiving the client's video on this transceiver (its track arrives with the first RTP). */
  attach(transceiver: RTCRtpTransceiver): void {
    const receive = (track: (typeof transceiver.receiver.tracks)[number]): void => {
      if (this.closed || track.kind !== "video") return;
      const codec = track.codec?.mimeType?.toLowerCase();
      if (codec && codec !== "video/vp8") return this.noPicture(`the client's ${codec} video cannot be decoded here`);
      const pli = () => {
        const t = this.now();
        if (t - this.lastPli < PLI_EVERY_MS || track.ssrc === undefined) return;
        this.lastPli = t;
        void transceiver.receiver.sendRtcpPLI(track.ssrc).catch(() => {});
      };
      const assembler = new Vp8FrameAssembler((f) => this.decoderNow().push(f), pli);
      const rtp = track.onReceiveRtp.subscribe((packet) => assembler.push(packet));
      this.unsubscribe.push(() => rtp.unSubscribe());
      pli(); // a decoder starts at a keyframe: ask for one now rather than wait for the next
    };
    // werift makes the track while it reads the offer (from its a=ssrc lines) or on the first RTP.
    for (const track of transceiver.receiver.tracks) receive(track);
    const sub = transceiver.onTrack.subscribe((track) => receive(track));
    this.unsubscribe.push(() => sub.unSubscribe());
  }

  /** Feeds whole VP8 frames directly (tests, benchmarks). */
  decoderNow(): FrameDecoder {
    if (!this.decoder) {
      this.decoder = new FrameDecoder({
        ffmpegPath: this.o.ffmpegPath,
        onPicture: (jpeg) => this.take(jpeg),
        onGiveUp: (why) => this.noPicture(why),
      });
    }
    return this.decoder;
  }

  /** The decoder child's process id, while one runs. */
  get decoderPid(): number | null {
    return this.decoder?.pid ?? null;
  }

  /** The latest picture, when it is recent and not black; null is "no picture". */
  picture(): Picture | null {
    const p = this.latest;
    if (!p || this.black || this.now() - p.at > STALE_MS) return null;
    return p;
  }

  /** What the face models saw last, when it is recent; null: no picture or not looked at yet. */
  seen(): Sighting | null {
    const s = this.sighting;
    if (!s || !this.picture() || this.now() - s.at > STALE_MS) return null;
    return s;
  }

  /** How long the camera has shown nobody (0 when someone is there or there is no picture). */
  awayForMs(): number {
    const s = this.seen();
    if (!s || s.present || this.awaySince === null) return 0;
    return this.now() - this.awaySince;
  }

  /** The one line of context for the model; null when there is nothing recent to say. */
  contextLine(): string | null {
    const s = this.seen();
    return s ? lookLine(s) : null;
  }

  /** The session ended: the decoder's child ends and the picture is dropped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const u of this.unsubscribe) u();
    this.decoder?.close();
    this.latest = null;
    this.sighting = null;
  }

  private take(jpeg: Buffer): void {
    if (this.closed) return;
    const at = this.now();
    this.latest = { jpeg, at };
    this.pictures++;
    if (at - this.lastLookAt >= this.lookEveryMs() && !this.looking) {
      this.lastLookAt = at;
      this.looking = true;
      void this.lookAt(jpeg, at).finally(() => (this.looking = false));
    }
  }

  /** How often the face models look now: every lookEveryMs, or twice that while the answer holds steady. */
  lookEveryMs(): number {
    const every = this.o.lookEveryMs ?? LOOK_EVERY_MS;
    return this.sameAnswers >= STEADY_LOOKS ? every * 2 : every;
  }

  /** Black or not, and (with the face models) who is there; about once a second. */
  private async lookAt(jpeg: Buffer, at: number): Promise<void> {
    try {
      const { data, info } = await sharp(jpeg)
        .resize(LOOK_SIDE, LOOK_SIDE, { fit: "inside" })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      let sum = 0;
      for (let i = 0; i < data.length; i += 3) sum += data[i]! * 0.299 + data[i + 1]! * 0.587 + data[i + 2]! * 0.114;
      const wasBlack = this.black;
      this.black = sum / (data.length / 3) < BLACK_LUMA;
      if (this.black && !wasBlack) this.log("perception: the client's video is black; no picture");
      if (this.black || !this.o.landmarker || this.closed) return;
      const thumb = thumbnail(data, info.width, info.height);
      if (
        this.sighting &&
        this.lookedThumb &&
        at - this.sighting.lookedAt < STILL_MAX_MS &&
        meanDiff(thumb, this.lookedThumb) < STILL_LEVELS
      ) {
        this.stillSkips++;
        this.sameAnswers++;
        this.sighting = { ...this.sighting, at }; // what was seen still holds for this picture
        return;
      }
      const landmarker = await this.o.landmarker();
      const faces = await landmarker.detect(new Uint8Array(data.buffer, data.byteOffset, data.length), info.width, info.height, {
        // One face (the person at the camera), no iris, no upright turn of the crop (a person at a
        // webcam holds their head near upright; the look reads the nose across the eye line anyway):
        // ~25 % less CPU a look than the photo path's settings (measured: 72 against 95 ms).
        iris: false,
        maxFaces: 1,
        rotation: false,
      });
      if (this.closed) return;
      this.looks++;
      const look = lookOf(faces);
      const before = this.sighting;
      const same = before && before.present === look.present && before.looking === look.looking && before.smiling === look.smiling;
      this.sameAnswers = same ? this.sameAnswers + 1 : 0;
      this.sighting = { ...look, at, lookedAt: at };
      this.lookedThumb = thumb;
      this.awaySince = look.present ? null : (this.awaySince ?? at);
    } catch (err) {
      this.log("perception: a picture could not be looked at", { error: (err as Error).message });
    }
  }

  private noPicture(why: string): void {
    this.log(`perception: no picture: ${why}`);
    this.latest = null;
    this.sighting = null;
  }
}

/** Mean grey of THUMB x THUMB cells of an RGB picture. */
function thumbnail(rgb: Uint8Array | Buffer, width: number, height: number): Float32Array {
  const out = new Float32Array(THUMB * THUMB);
  const count = new Uint32Array(THUMB * THUMB);
  for (let y = 0; y < height; y += 2) {
    const row = Math.min(THUMB - 1, Math.floor((y * THUMB) / height)) * THUMB;
    for (let x = 0; x < width; x += 2) {
      const i = (y * width + x) * 3;
      const cell = row + Math.min(THUMB - 1, Math.floor((x * THUMB) / width));
      out[cell] += rgb[i]! * 0.299 + rgb[i + 1]! * 0.587 + rgb[i + 2]! * 0.114;
      count[cell]++;
    }
  }
  for (let c = 0; c < out.length; c++) out[c] /= Math.max(1, count[c]!);
  return out;
}

function meanDiff(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
  return d / a.length;
}
