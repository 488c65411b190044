// Implements: what the box's face preparers are asked and hand back (box/faces/prepare-photo.ts,
// prepare-video.ts): a photo's prepared face, and a video's idle loop with its anchors. Own
// avatars (own-avatars.ts) are given the two preparers; the video loops (video-loops.ts) read
// what the video one returns.
import type { FaceAnchors, PreparedFace } from "../../render/prepared-face.ts";
import type { VideoSource } from "../../faces/prepare-video.ts";

export interface PhotoPrepared {
  face: PreparedFace;
  facesFound: number;
  detail: string;
  landmarks: { x: number; y: number }[];
}
export type PreparePhoto = (bytes: Uint8Array, opts: { size: number; framing?: string }) => Promise<PhotoPrepared>;

/** A video's idle loop as the preparer hands it over (box/faces/prepare-video.ts). */
export interface VideoPrepared {
  /** The loop's first frame. */
  face: PreparedFace;
  /** I420 frames at the video size; frames[0] is face.i420. */
  frames: Uint8Array[];
  anchors: FaceAnchors[];
  landmarks: { x: number; y: number }[];
  facesFound: number;
  detail: string;
  loop: { startS: number; seconds: number; fps: number };
}
/** `width`/`height`: the size the frames are shown at (ffprobe, rotation applied). */
export type PrepareVideo = (src: VideoSource, opts: { size: number; framing?: string }) => Promise<VideoPrepared>;
