// Implements: the clips of "Box: avatars and clips": per tone an MP4 (H.264) of the face's idle
// loop, rendered by the live renderer's model and encoded by ffmpeg. The loop's last frames blend
// into its first ones, so the clip plays on repeat without a visible jump (loop_frame 0).
import { spawn } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import type { Tone } from "../../../shared/wire/tones.ts";
import type { FaceRenderer } from "../../render/face-renderer.ts";
import type { FrameParams } from "../../render/frame-params.ts";
import type { PreparedFace } from "../../render/prepared-face.ts";
import { restFrame } from "../../render/tone-rest.ts";
import { IdleAnimator } from "../../live/idle-animator.ts";
import { diesWithParent } from "../../media/parent-death.ts";

export interface IdleClipSpec {
  face: PreparedFace;
  tone: Tone;
  seconds: number;
  fps: number;
  /** Head motion scale (gesture amplitude); 1 is the live idle's. */
  motion: number;
  seed: number;
}

/** Frames blended into the loop's start at its end (0.8 s at 25 fps). */
const BLEND_FRAMES = 20;

/** The idle parameters of frame i of an n-frame loop: its tail eases into frames before 0. */
export function loopParams(idle: IdleAnimator, base: FrameParams, i: number, n: number): FrameParams {
  const p = { ...base, ...idle.params(i) };
  const k = Math.min(BLEND_FRAMES, Math.floor(n / 3));
  const into = i - (n - k); // 0..k-1 inside the blend
  if (into < 0) return p;
  // Frame n is frame 0 again: the tail blends toward the frames that lead into frame 0 (i - n < 0).
  const q = { ...base, ...idle.params(i - n) };
  const w = (into + 1) / (k + 1);
  const s = w * w * (3 - 2 * w); // smoothstep
  const out = { ...p };
  for (const key of Object.keys(p) as (keyof FrameParams)[]) out[key] = p[key] * (1 - s) + q[key] * s;
  return out;
}

/**
 * Renders the loop and encodes it to `outPath` (written to a temporary name, renamed when whole).
 * Between frames it yields to the event loop, so a live session on the same box keeps its clock.
 */
export async function renderIdleClip(
  renderer: FaceRenderer,
  spec: IdleClipSpec,
  outPath: string,
  ffmpegPath = "/usr/bin/ffmpeg",
): Promise<{ frames: number; seconds: number }> {
  const n = Math.max(2, Math.round(spec.seconds * spec.fps));
  const { width, height } = spec.face;
  const tmp = `${outPath}.part-${process.pid}.mp4`;
  const args = [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "yuv420p",
    "-s",
    `${width}x${height}`,
    "-r",
    String(spec.fps),
    "-i",
    "pipe:0",
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "20",
    "-pix_fmt",
    "yuv420p",
    "-threads",
    "1",
    "-g",
    String(spec.fps * 2),
    "-movflags",
    "+faststart",
    "-an",
    tmp,
  ];
  const { command, args: wrapped } = diesWithParent(ffmpegPath, args);
  const child = spawn(command, wrapped, { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
  child.stdin!.on("error", () => {}); // ffmpeg gone: its exit status says why
  // Set once ffmpeg is gone: a full pipe then never drains, so the frames stop.
  let ended = false;
  const gone = exited.then(
    () => void (ended = true),
    () => void (ended = true),
  );
  // The clip is the tone's resting face: the seed is fixed per avatar, so a rebuild gives the same loop.
  const idle = new IdleAnimator({ fps: spec.fps, seed: spec.seed, motion: spec.motion });
  const base = restFrame(spec.tone);
  const buf = new Uint8Array(spec.face.i420.length);
  try {
    for (let i = 0; i < n && !ended; i++) {
      await renderer.render(spec.face, loopParams(idle, base, i, n), buf);
      if (!child.stdin!.write(buf)) await Promise.race([new Promise<void>((r) => child.stdin!.once("drain", () => r())), gone]);
      await new Promise((r) => setImmediate(r));
    }
    child.stdin!.end();
    const code = await exited;
    if (code !== 0) throw new Error(`ffmpeg could not encode the clip (exit ${code}): ${stderr.trim().split("\n").at(-1) ?? ""}`);
    renameSync(tmp, outPath);
    return { frames: n, seconds: n / spec.fps };
  } catch (err) {
    child.kill("SIGKILL");
    rmSync(tmp, { force: true });
    throw err;
  }
}
