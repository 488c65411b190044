// Implements: video preparation (issue 10 item 3; docs/architecture.md "A video face"): a video keeps the motion
// it was filmed with. Two passes over the footage with ffmpeg:
//  1. a sparse look (5 frames a second, at most 250, 640 px; video-look.ts) that follows the face,
//     picks the idle loop (closed lips, little motion; `chooseLoop`) and one crop for it (`loopCrop`);
//  2. the loop itself at 25 fps, cut to that crop at the renderer's size, the face found on every
//     frame, the mesh smoothed over time, and the renderer's anchors taken from it frame by frame.
// Every frame runs the detector, then FaceMesh without the iris model: Human's own tracking
// (FaceMesh on the box the last mesh gave) drifts on still footage (3 px of mouth and 7 px of face
// height over 3 s, measured) because each box follows the mesh it produced, while a detector box
// per frame held within 1-2 px; and without the iris model a detected frame costs less than a
// tracked one with it (about 50 vs 65 ms on this machine's loaded cores).
// The result is the loop's I420 frames with their anchors; the live session plays them ping-pong.
import type { FaceAnchors, Point, PreparedFace } from "../render/prepared-face.ts";
import type { DetectedFace, FaceLandmarker } from "./face-landmarker.ts";
import { parseFraming } from "./framing.ts";
import type { FrameTransform } from "./frame-warp.ts";
import { anchorsFromMesh, MESH } from "./mesh-anchors.ts";
import { photoLandmarker } from "./prepare-photo.ts";
import { PhotoFaceError } from "./photo-error.ts";
import { rgbToI420 } from "../render/i420.ts";
import { DecodeError, rgbFrames, type VideoFile } from "./video-decode.ts";
import { cheekWidth } from "./face-tracks.ts";
import { lookAtVideo, type VideoLook } from "./video-look.ts";
import { chooseLoop, fillGaps, loopCrop, smoothMeshes } from "./video-track.ts";

/** A video that cannot become a face: the message is meant for the person who uploaded it. */
export class VideoFaceError extends PhotoFaceError {}

/** The stored video, with the demuxer its bytes were judged to need (video-decode.ts). */
export interface VideoSource extends VideoFile {
  /** Size as displayed (rotation applied, square pixels). */
  width: number;
  height: number;
  durationS: number;
}

export interface VideoPrepOptions {
  /** Output frame side in pixels (even, the renderer's size). */
  size: number;
  /** As for photos (framing.ts); applied to the whole loop. */
  framing?: string;
  /** Longest loop before the ping-pong doubles it (default 8 s). */
  maxLoopSeconds?: number;
  /** Frame rate of the loop (the live session's, 25). */
  fps?: number;
  ffmpegPath?: string;
  landmarker?: FaceLandmarker;
}

export interface PreparedVideo {
  /** The loop's first frame: the still for previews and clips. */
  face: PreparedFace;
  /** The loop's frames, I420 at size x size (frames[0] is face.i420). */
  frames: Uint8Array[];
  /** Per frame, the renderer's anchors from the smoothed mesh. */
  anchors: FaceAnchors[];
  /** The first frame's smoothed mesh (468 points: no iris), in output pixels. */
  landmarks: Point[];
  facesFound: number;
  detail: string;
  loop: { startS: number; seconds: number; fps: number; lostFrames: number };
}

const ANALYSIS_SIDE = 640;
const ANALYSIS_SAMPLES = 250;
const MIN_LOOP_SECONDS = 0.8;
/**
 * Faces scoring less are not followed: over hundreds of frames the detector now and then finds a
 * "face" in a pattern (seen at 0.50 on moving colour bars), real faces score 0.9 and more.
 */
const MIN_SCORE = 0.6;

const even = (v: number) => Math.max(2, 2 * Math.round(v / 2));
/** Lets timers run between two frames' face meshes (the live stream's frame clock shares this thread). */
const breathe = () => new Promise<void>((r) => setImmediate(r));

/** The face in `faces` nearest `near` (its nose tip within half a face width), or the largest when `near` is null. */
function follow(faces: DetectedFace[], near: Point | null, reach: number): DetectedFace | null {
  if (faces.length === 0) return null;
  if (!near) return faces[0];
  let best: DetectedFace | null = null;
  let bestD = reach;
  for (const f of faces) {
    const n = f.mesh[MESH.noseTip];
    const d = Math.hypot(n.x - near.x, n.y - near.y);
    if (d < bestD) (best = f), (bestD = d);
  }
  return best;
}

/** Below this roll (radians) the footage is not turned: a turn costs a resampling. */
const LEVEL_ROLL = 0.005;

/**
 * The ffmpeg filters that realise `t` on the video: cut the square (or, when turning, the square
 * that holds the turned one), scale it, turn it about its centre and keep the middle size x size.
 */
function cropFilters(t: FrameTransform, src: VideoSource, size: number): string {
  const c = t.toPhoto({ x: size / 2, y: size / 2 });
  const turn = Math.abs(t.roll) > LEVEL_ROLL;
  const side = (size / t.scale) * (turn ? Math.abs(Math.cos(t.roll)) + Math.abs(Math.sin(t.roll)) : 1);
  const cut = Math.min(even(side), 2 * Math.floor(src.width / 2), 2 * Math.floor(src.height / 2));
  const x = Math.min(Math.max(0, 2 * Math.round((c.x - cut / 2) / 2)), src.width - cut);
  const y = Math.min(Math.max(0, 2 * Math.round((c.y - cut / 2) / 2)), src.height - cut);
  const scaled = turn ? even(cut * t.scale) : size;
  const chain = [`scale=${src.width}:${src.height}`, `crop=${cut}:${cut}:${x}:${y}`, `scale=${scaled}:${scaled}:flags=lanczos`];
  // ffmpeg turns clockwise for a positive angle; the face is turned clockwise by `roll`.
  if (turn) chain.push(`rotate=${(-t.roll).toFixed(6)}:ow=${size}:oh=${size}:bilinear=1`);
  return chain.join(",");
}

export async function prepareVideo(src: VideoSource, opts: VideoPrepOptions): Promise<PreparedVideo> {
  const { size } = opts;
  if (!Number.isInteger(size) || size < 64 || size % 2) throw new Error(`prepareVideo: size must be an even integer >= 64, got ${size}`);
  const fps = opts.fps ?? 25;
  const maxLoop = opts.maxLoopSeconds ?? 8;
  const { framing, note: framingNote } = parseFraming(opts.framing);
  const landmarker = opts.landmarker ?? (await photoLandmarker());
  const decodeTimeout = 60_000 + src.durationS * 3_000;

  // Pass 1: a sparse look at the whole video (video-look.ts).
  let look: VideoLook;
  try {
    look = await lookAtVideo(src, src, landmarker, {
      side: ANALYSIS_SIDE,
      maxSamples: ANALYSIS_SAMPLES,
      minScore: MIN_SCORE,
      timeoutMs: decodeTimeout,
      ffmpegPath: opts.ffmpegPath,
      breathe,
    });
  } catch (err) {
    if (err instanceof DecodeError) throw new VideoFaceError(`The video could not be prepared: ${err.message}.`, { cause: err });
    throw err;
  }
  const { samples, facesFound } = look;
  const rate = 1 / look.dt;
  if (samples.filter(Boolean).length / rate < MIN_LOOP_SECONDS) {
    throw new VideoFaceError("No face was found in the video. Use a video where one face looks at the camera, well lit and not too small.");
  }
  const choice = chooseLoop(samples, 1 / rate, { maxSeconds: maxLoop, minSeconds: MIN_LOOP_SECONDS });
  if (!choice) {
    throw new VideoFaceError(
      `The face is in view for less than ${MIN_LOOP_SECONDS} s at a time in the video; an idle loop needs a steady stretch with the face visible.`,
    );
  }
  const startS = choice.startS;
  const seconds = Math.min(choice.seconds, src.durationS - startS, maxLoop);
  const windowMeshes = fillGaps(samples.slice(choice.first, choice.last + 1));
  const crop = loopCrop(windowMeshes, framing, src, size);
  const t = crop.transform;

  // Pass 2: the loop at the live frame rate. ffmpeg cuts the crop (turned to level the eyes) at
  // the renderer's size, so JS only tracks and converts to I420. The crop lands within a pixel
  // of `t`; that does not matter, since the face is tracked on these very frames.
  const filters = `fps=${fps},${cropFilters(t, src, size)}`;
  const frames: Uint8Array[] = [];
  const meshes: (Point[] | null)[] = [];
  const first = windowMeshes[0];
  let expect: Point | null = t.toOutput(first[MESH.noseTip]);
  let reach = cheekWidth(first) * t.scale * 0.5;
  const wanted = Math.max(1, Math.round(seconds * fps));
  try {
    for await (const rgb of rgbFrames(src, {
      startS,
      seconds,
      filters,
      width: size,
      height: size,
      maxFrames: wanted,
      timeoutMs: decodeTimeout,
      ffmpegPath: opts.ffmpegPath,
    })) {
      await breathe();
      const faces = (await landmarker.detect(rgb, size, size, { iris: false })).filter((f) => f.score >= MIN_SCORE);
      const f = follow(faces, expect, reach);
      // Human truncates mesh points to whole pixels: half a pixel puts them back on average.
      meshes.push(f ? f.mesh.map((p) => ({ x: p.x + 0.5, y: p.y + 0.5 })) : null);
      if (f) {
        expect = f.mesh[MESH.noseTip];
        reach = cheekWidth(f.mesh) * 0.5;
      }
      frames.push(rgbToI420(rgb, size, size));
    }
  } catch (err) {
    if (err instanceof DecodeError) throw new VideoFaceError(`The video could not be prepared: ${err.message}.`, { cause: err });
    throw err;
  }
  const lostFrames = meshes.filter((m) => !m).length;
  if (frames.length === 0 || lostFrames === frames.length) {
    throw new VideoFaceError("The face could not be followed through the video; use a video where one face stays in view, well lit.");
  }
  const smoothed = smoothMeshes(fillGaps(meshes));
  const anchors = smoothed.map((m) => anchorsFromMesh(m));

  const notes: string[] = [facesFound <= 1 ? "1 face found" : `${facesFound} faces found; the one in view longest was followed`];
  notes.push(`framing "${framing.name}"`);
  if (framingNote) notes.push(framingNote);
  notes.push(
    `idle loop of ${(frames.length / fps).toFixed(1)} s from ${startS.toFixed(1)} s of the video, played forwards then backwards, with the video's own motion`,
  );
  notes.push(...crop.notes);
  if (Math.abs(t.roll) > (3 * Math.PI) / 180)
    notes.push(`the head was tilted by ${Math.abs(Math.round((t.roll * 180) / Math.PI))} degrees; the video was turned to level the eyes`);
  if (t.scale > 2) notes.push("the face is small in the video; the avatar will look soft");
  if (choice.gap > 0.12) notes.push("the lips are apart in most of the video; a stretch with the mouth at rest loops best");
  if (lostFrames > 0)
    notes.push(`the face was not found in ${lostFrames} of ${frames.length} frames (filled in from the frames around them)`);

  return {
    face: { width: size, height: size, i420: frames[0], anchors: anchors[0] },
    frames,
    anchors,
    landmarks: smoothed[0],
    facesFound: Math.max(1, facesFound),
    detail: notes.join("; "),
    loop: { startS, seconds: frames.length / fps, fps, lostFrames },
  };
}
