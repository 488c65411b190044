// Implements: the first look at an uploaded video (issue 10 item 3): which person the idle loop
// follows, and where that face is, sample by sample, for `chooseLoop` and `loopCrop`.
// The detector sees a whole frame squeezed to 256 px, where a face that fills a fifth of a 720p
// frame is about 50 px: measured on a slowly drifting, zooming 720p video of a real face, the
// whole-frame search missed it in 16 of 50 samples and scored it under 0.6 in 10 more, and its mesh
// jumped by up to 30 px between samples. Searching a square of three face widths around where the
// face just was makes it fill the detector's view: the same 50 samples were all found at 0.99-1.00
// and the nose moved smoothly. So the look runs in two stages over two cheap decodes:
//  A. whole frames, at most 2 a second: every face, joined into tracks (`FaceTracks`); the main
//     person is the track seen longest, larger faces counting more;
//  B. up to 5 samples a second: that person followed in a square around their last place (or, after
//     a miss, around stage A's nearest sighting of them), the face nearest it taken.
import type { Point } from "../render/prepared-face.ts";
import type { FaceLandmarker } from "./face-landmarker.ts";
import { FaceTracks, cheekWidth } from "./face-tracks.ts";
import { MESH } from "./mesh-anchors.ts";
import { rgbFrames, type VideoFile } from "./video-decode.ts";

export interface LookOptions {
  /** Longest side of the analysed frames. */
  side?: number;
  /** Samples a second in stage B (fewer for a long video: at most `maxSamples` in all). */
  rate?: number;
  maxSamples?: number;
  /** Faces scoring less are not taken. */
  minScore: number;
  timeoutMs: number;
  ffmpegPath?: string;
  /** Awaited between two samples (lets the live stream's frame clock run). */
  breathe?: () => Promise<void>;
}

export interface VideoLook {
  /** The followed face's mesh per stage-B sample, in video pixels (null where it was not found). */
  samples: (Point[] | null)[];
  /** Seconds between two samples. */
  dt: number;
  /** Most faces seen in one whole frame. */
  facesFound: number;
}

const even = (v: number) => Math.max(2, 2 * Math.round(v / 2));
/** Stage A's rate: enough to tell people apart and to re-find the face after a miss. */
const WHOLE_RATE = 2;

/** A side x side square of an RGB frame (w wide) from (x0, y0). */
function cropRgb(rgb: Uint8Array, w: number, x0: number, y0: number, side: number): Uint8Array {
  const out = new Uint8Array(side * side * 3);
  for (let y = 0; y < side; y++) {
    const from = ((y0 + y) * w + x0) * 3;
    out.set(rgb.subarray(from, from + side * 3), y * side * 3);
  }
  return out;
}

export async function lookAtVideo(
  file: VideoFile,
  video: { width: number; height: number; durationS: number },
  landmarker: FaceLandmarker,
  o: LookOptions,
): Promise<VideoLook> {
  const side = o.side ?? 640;
  const k = Math.min(1, side / Math.max(video.width, video.height));
  const aw = even(video.width * k);
  const ah = even(video.height * k);
  const sx = video.width / aw;
  const sy = video.height / ah;
  const maxSamples = o.maxSamples ?? 250;
  const breathe = o.breathe ?? (async () => {});
  // Human truncates mesh points to whole pixels: half a pixel puts them back on average.
  const toVideo = (m: Point[], x0 = 0, y0 = 0) => m.map((p) => ({ x: (p.x + x0 + 0.5) * sx, y: (p.y + y0 + 0.5) * sy }));
  const decode = (rate: number) =>
    rgbFrames(file, {
      filters: `fps=${rate.toFixed(4)},scale=${aw}:${ah}:flags=area`,
      width: aw,
      height: ah,
      maxFrames: Math.ceil(video.durationS * rate) + 2,
      timeoutMs: o.timeoutMs,
      ffmpegPath: o.ffmpegPath,
    });

  // Stage A: whole frames.
  const wholeRate = Math.min(WHOLE_RATE, maxSamples / 4 / video.durationS);
  const tracks = new FaceTracks();
  let wholeCount = 0;
  let facesFound = 0;
  for await (const rgb of decode(wholeRate)) {
    await breathe();
    const faces = (await landmarker.detect(rgb, aw, ah, { iris: false })).filter((f) => f.score >= o.minScore);
    facesFound = Math.max(facesFound, faces.length);
    tracks.add(
      wholeCount++,
      faces.map((f) => toVideo(f.mesh)),
    );
  }
  const sightings = tracks.main(wholeCount);

  // Stage B: follow the main person closely.
  const rate = Math.min(o.rate ?? 5, maxSamples / video.durationS);
  const dt = 1 / rate;
  const samples: (Point[] | null)[] = [];
  let last: { mesh: Point[]; index: number } | null = null;
  for await (const rgb of decode(rate)) {
    await breathe();
    const index = samples.length;
    // Where to look: the face's last place if it was seen a moment ago, else stage A's sighting
    // nearest in time (within a second), else nowhere.
    let seed: Point[] | null = last && index - last.index <= 2 ? last.mesh : null;
    if (!seed) {
      const near = Math.round(index * dt * wholeRate);
      for (const j of [near, near - 1, near + 1]) {
        const s = sightings[j];
        if (s && Math.abs(j / wholeRate - index * dt) <= 1) {
          seed = s;
          break;
        }
      }
    }
    if (!seed) {
      samples.push(null);
      continue;
    }
    const nose = seed[MESH.noseTip];
    const width = cheekWidth(seed) / sx;
    const sq = Math.min(even(Math.max(96, width * 3)), 2 * Math.floor(Math.min(aw, ah) / 2));
    const x0 = Math.min(Math.max(0, Math.round(nose.x / sx - sq / 2)), aw - sq);
    const y0 = Math.min(Math.max(0, Math.round(nose.y / sy - sq / 2)), ah - sq);
    const faces = (await landmarker.detect(cropRgb(rgb, aw, x0, y0, sq), sq, sq, { iris: false })).filter((f) => f.score >= o.minScore);
    // Nearest to where it was: within half a face width of its last place, a whole one of stage A's
    // coarser sighting.
    const reach = cheekWidth(seed) * (seed === last?.mesh ? 0.5 : 1);
    let best: Point[] | null = null;
    let bestD = reach;
    for (const f of faces) {
      const m = toVideo(f.mesh, x0, y0);
      const d = Math.hypot(m[MESH.noseTip].x - nose.x, m[MESH.noseTip].y - nose.y);
      if (d < bestD) (best = m), (bestD = d);
    }
    samples.push(best);
    if (best) last = { mesh: best, index };
  }
  return { samples, dt, facesFound };
}
