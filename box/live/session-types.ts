// Implements: the shapes a live session (live-session.ts) is given and hands out: its options, the
// report of each frame the media clock takes (benchmarks of onsets and pacing) and its speech
// events. Apart so the sockets, the chat and the benchmarks can name them without the session.
import type { FaceRenderer } from "../render/face-renderer.ts";
import type { FfmpegEncoder } from "../media/encoder.ts";
import type { Scheduled } from "./speech-timeline.ts";

export interface LiveSessionOptions {
  renderer: FaceRenderer;
  fps?: number;
  loopbackOnly: boolean;
  ffmpegPath?: string;
  /** Frames rendered ahead of the clock. */
  lookahead?: number;
  /** A started video encoder for a new session (the box's warm spare). */
  videoEncoder?: () => Promise<FfmpegEncoder>;
  /** Told about every frame handed to the media clock (benchmarks of onsets and pacing). */
  onFrame?: (report: FrameReport) => void;
  /** BOX_PERCEPTION: receive and look at the client's camera or screen track (default off here; the box turns it on). */
  perception?: boolean;
}

/** What frame `frame` carried when the media clock took it. */
export interface FrameReport {
  frame: number;
  /** performance.now() when the clock asked for it. */
  at: number;
  /** The utterance whose audio it carries (null: silence). */
  utterance: number | null;
  /** Whether its picture was rendered for this frame (false: the previous picture repeated). */
  fresh: boolean;
  /** The mouth opening the picture shown was rendered with. */
  open: number;
  /** Peak |sample| of its audio. */
  peak: number;
}

export type SpeechEvent = { kind: "start" | "end"; utterance: Scheduled; interrupted: boolean };
