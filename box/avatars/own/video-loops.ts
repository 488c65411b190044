// Implements: a video avatar's idle loops on the volume: preparing them (the base video's loop, then
// one per tone from its first usable `take__<tone>`) with each loop's meta, and reading them back
// as the frame sources the live session plays (null when one is missing or damaged, so the video
// is prepared again). Apart from own-avatars.ts, which runs the preparation queue and the records.
import { anchorsToVector, type PreparedFace } from "../../render/prepared-face.ts";
import type { FrameSource, FrameSources } from "../frame-source.ts";
import { FrameLoop, anchorsFromVector } from "./frame-loop.ts";
import type { LoopMeta, OwnManifest } from "./manifest.ts";
import type { PhotoPrepared, PrepareVideo, VideoPrepared } from "./preparers.ts";
import type { OwnAvatarStore } from "./store.ts";
import { BadVideo, probeVideo } from "./video.ts";

export interface VideoLoopOptions {
  /** Side of the square live video: loops are prepared at this size. */
  size: number;
  /** Absent: a video upload fails ("not available on this box"). */
  prepareVideo?: PrepareVideo;
  /** True for the preparer's own refusals (no face, unreadable): a take that fails so is skipped. */
  isPhotoError: (err: unknown) => boolean;
}

/**
 * A video's idle loops: the base video's, then one per `take__<tone>` (the first take of a tone
 * that yields a loop; a tone whose takes all fail plays the base video). Every loop is on the
 * volume before this returns; the base loop's meta, written last, lists the tones with takes.
 */
export async function prepareVideoLoops(
  store: OwnAvatarStore,
  m: OwnManifest,
  framing: string | undefined,
  o: VideoLoopOptions,
): Promise<PhotoPrepared> {
  const prepare = o.prepareVideo;
  if (!prepare) throw new Error("video preparation is not available on this box");
  const loopOf = async (file: string) => {
    const path = store.fileIn(m, file);
    const info = await probeVideo(path);
    return prepare(
      { path, demuxer: info.demuxer, width: info.displayWidth, height: info.displayHeight, durationS: info.durationS },
      { size: o.size, framing },
    );
  };
  const base = await loopOf(m.source_file);
  const notes = [base.detail.replace(/\.?$/, ".")];
  const takeTones: string[] = [];
  const tones = [...new Set(m.takes.map((t) => t.tone))].filter((t) => m.tones.includes(t));
  for (const tone of tones) {
    const why: string[] = [];
    for (const take of m.takes.filter((t) => t.tone === tone).sort((a, b) => a.n - b.n)) {
      const name = `take__${tone}${take.n ? `__${take.n}` : ""}`;
      try {
        const v = await loopOf(take.file);
        await store.saveLoop(m.owner, m.avatar_id, tone, v.frames, loopMeta(v, take.file, []));
        takeTones.push(tone);
        notes.push(`${tone}: its own idle loop from ${name} (${v.loop.seconds.toFixed(1)} s from ${v.loop.startS.toFixed(1)} s).`);
        break;
      } catch (err) {
        if (!o.isPhotoError(err) && !(err instanceof BadVideo)) throw err;
        why.push(`${name}: ${(err as Error).message}`);
      }
    }
    if (why.length && !takeTones.includes(tone))
      notes.push(`${tone}: no take could be used (${why.join(" ")}), so it plays the base video with the ${tone} resting expression.`);
  }
  await store.saveLoop(m.owner, m.avatar_id, null, base.frames, loopMeta(base, m.source_file, takeTones));
  return { face: base.face, facesFound: base.facesFound, landmarks: base.landmarks, detail: notes.join(" ") };
}

/** The loops of a ready video as the live session plays them, or null when one is missing or damaged. */
export async function loadLoops(store: OwnAvatarStore, m: OwnManifest, still: PreparedFace, size: number): Promise<FrameSources | null> {
  const source = async (tone: string | null, meta: LoopMeta): Promise<FrameSource | null> => {
    const first =
      tone === null
        ? still
        : await store
            .readLoopFrame(m.owner, m.avatar_id, tone, 0, meta.frame_bytes)
            .then((i420) => i420 && { width: size, height: size, i420, anchors: anchorsFromVector(meta.anchors[0]) });
    if (!first) return null;
    return new FrameLoop(meta.count, meta.anchors.map(anchorsFromVector), first, size, () =>
      store.readLoopFrames(m.owner, m.avatar_id, tone),
    );
  };
  const baseMeta = await store.loadLoopMeta(m.owner, m.avatar_id, null, size);
  const base = baseMeta && (await source(null, baseMeta));
  if (!baseMeta || !base) return null;
  const takes: FrameSources["takes"] = {};
  for (const tone of baseMeta.take_tones) {
    const meta = await store.loadLoopMeta(m.owner, m.avatar_id, tone, size);
    const take = meta && (await source(tone, meta));
    if (!take) return null;
    takes[tone] = take;
  }
  return { base, takes };
}

function loopMeta(v: VideoPrepared, from: string, takeTones: string[]): LoopMeta {
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    version: 1,
    width: v.face.width,
    height: v.face.height,
    fps: v.loop.fps,
    count: v.frames.length,
    frame_bytes: v.face.i420.length,
    play: "pingpong",
    from,
    start_s: round(v.loop.startS),
    seconds: round(v.loop.seconds),
    anchors: v.anchors.map((a) => Array.from(anchorsToVector(a), round)),
    take_tones: takeTones,
    detail: v.detail,
  };
}
