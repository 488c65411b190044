// How a live session plays a video face, on stand-in loops: ping-pong frames, the tone's own
// take or the base video, a short fade when the loop changes, and holding/letting go of the frames.
import { describe, expect, it } from "vitest";
import type { FrameSource, FrameSources } from "../avatars/frame-source.ts";
import type { PreparedFace } from "../render/prepared-face.ts";
import { FADE_FRAMES, LoopPlayer, blendInto } from "./loop-player.ts";

/** A loop of `n` frames whose i420[0] is base + k; counts holders. */
function fakeLoop(n: number, base: number): FrameSource & { holders: number } {
  const face = (k: number) => ({ width: 2, height: 2, i420: new Uint8Array(6).fill(base + k), anchors: {} }) as unknown as PreparedFace;
  const frames = Array.from({ length: n }, (_, k) => face(k));
  return {
    count: n,
    still: frames[0],
    holders: 0,
    async acquire() {
      this.holders++;
    },
    release() {
      this.holders--;
    },
    frame(k: number) {
      return this.holders > 0 ? frames[k] : null;
    },
  };
}

describe("LoopPlayer", () => {
  it("plays the loop ping-pong: session frame n and 2N-1-n show the same loop frame", async () => {
    const base = fakeLoop(5, 0);
    const frames: FrameSources = { base, takes: {} };
    const p = new LoopPlayer();
    expect(p.faces(0, frames, "neutral").face).toBe(base.still); // not held yet: the still
    await p.hold(frames);
    const shown = Array.from({ length: 20 }, (_, i) => p.faces(i, frames, "neutral").face);
    expect(shown.map((f) => f.i420[0])).toEqual([0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 4, 3, 2, 1, 0]);
    for (let n = 0; n < 10; n++) expect(shown[n]).toBe(shown[2 * 5 - 1 - n]);
  });

  it("plays a tone's take while it speaks and fades between the loops instead of cutting", async () => {
    const base = fakeLoop(50, 0);
    const happy = fakeLoop(50, 100);
    const frames: FrameSources = { base, takes: { happy } };
    const p = new LoopPlayer();
    await p.hold(frames);
    const tone = (i: number) => (i >= 10 && i < 30 ? "happy" : "sad"); // sad has no take: the base video
    const picks = Array.from({ length: 40 }, (_, i) => p.faces(i, frames, tone(i)));
    // Rendering again a few frames back (an utterance queued) picks the same way.
    for (let i = 8; i < 15; i++) p.faces(i, frames, tone(i));
    expect(p.faces(12, frames, "happy").weight).toBeCloseTo(3 / (FADE_FRAMES + 1), 9);
    expect(picks[9]).toMatchObject({ weight: 1 });
    expect(picks[9].from).toBeUndefined();
    for (let j = 0; j < FADE_FRAMES; j++) {
      expect(picks[10 + j].face.i420[0]).toBe(100 + 10 + j);
      expect(picks[10 + j].from!.i420[0]).toBe(10 + j);
      expect(picks[10 + j].weight).toBeCloseTo((j + 1) / (FADE_FRAMES + 1), 9);
    }
    expect(picks[10 + FADE_FRAMES].from).toBeUndefined();
    expect(picks[30].face.i420[0]).toBe(30);
    expect(picks[30].from!.i420[0]).toBe(130);
  });

  it("holds every loop of the face on screen and lets go of them when it leaves", async () => {
    const a = { base: fakeLoop(3, 0), takes: { happy: fakeLoop(3, 10) } };
    const b = { base: fakeLoop(3, 20), takes: {} };
    const p = new LoopPlayer();
    await p.hold(a);
    await p.hold(a);
    expect([a.base.holders, a.takes.happy.holders]).toEqual([1, 1]);
    await p.hold(b);
    expect([a.base.holders, a.takes.happy.holders, b.base.holders]).toEqual([0, 0, 1]);
    await p.hold(undefined);
    expect(b.base.holders).toBe(0);
    expect(p.holds(undefined)).toBe(true);
  });

  it("blends two I420 frames by weight", () => {
    const out = Uint8Array.from([0, 100, 255, 200]);
    blendInto(out, Uint8Array.from([255, 100, 0, 0]), 0.25);
    expect(Array.from(out)).toEqual([191, 100, 64, 50]);
  });
});
