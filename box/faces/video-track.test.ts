// The video track's pure parts on made-up meshes: ping-pong, smoothing that removes jitter but
// keeps fast moves, the idle loop choice, the one crop for a whole loop, and RGB -> I420.
import { describe, expect, it } from "vitest";
import { pingPong } from "../avatars/frame-source.ts";
import type { Point } from "../render/prepared-face.ts";
import { rgbaToI420, rgbToI420 } from "../render/i420.ts";
import { FaceTracks } from "./face-tracks.ts";
import { FRAMINGS } from "./framing.ts";
import { anchorsFromMesh, MESH } from "./mesh-anchors.ts";
import { syntheticMesh } from "./testing/synthetic-mesh.ts";
import { chooseLoop, fillGaps, fitSimilarity, loopCrop, savitzkyGolay, smoothMeshes } from "./video-track.ts";

/** Deterministic noise in [-1, 1]. */
function noise(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return ((a ^ (a >>> 13)) >>> 0) / 2147483648 - 1;
  };
}

const rms = (a: number[]) => Math.sqrt(a.reduce((s, v) => s + v * v, 0) / a.length);

describe("pingPong", () => {
  it("plays the frames forwards then backwards, each turnaround frame twice", () => {
    expect(Array.from({ length: 12 }, (_, i) => pingPong(i, 4))).toEqual([0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]);
    for (let n = 1; n < 7; n++) for (let i = 0; i < 4 * n; i++) expect(pingPong(i, n)).toBe(pingPong(2 * n - 1 - i, n));
    expect(pingPong(-1, 4)).toBe(0);
    expect(pingPong(5, 1)).toBe(0);
  });
});

describe("savitzkyGolay", () => {
  it("keeps a parabola exactly, to the ends, and halves white noise", () => {
    const para = Array.from({ length: 40 }, (_, i) => 3 + 0.5 * i - 0.02 * i * i);
    const out = savitzkyGolay(para, 3);
    for (let i = 0; i < 40; i++) expect(out[i]).toBeCloseTo(para[i], 9);
    const r = noise(7);
    const n = Array.from({ length: 400 }, () => r());
    expect(rms(Array.from(savitzkyGolay(n, 4)))).toBeLessThan(rms(n) * 0.6);
  });
});

describe("smoothMeshes", () => {
  it("removes per-point jitter but follows a fast head move without lag", () => {
    const r = noise(3);
    // The head sweeps 40 px left and right in one second (25 frames) and the mouth opens and closes.
    const truth = Array.from({ length: 75 }, (_, i) =>
      syntheticMesh({
        x: 250 + 40 * Math.sin((2 * Math.PI * i) / 25),
        y: 260,
        height: 240,
        gap: 0.1 + 0.1 * Math.sin((2 * Math.PI * i) / 50),
      }),
    );
    const noisy = truth.map((m) => m.map((p) => ({ x: p.x + 1.5 * r(), y: p.y + 1.5 * r() })));
    const smooth = smoothMeshes(noisy);
    const err = (ms: Point[][]) =>
      rms(
        ms.flatMap((m, i) =>
          [MESH.mouthCorners[0], MESH.upperInner[5], MESH.chin].map((j) => Math.hypot(m[j].x - truth[i][j].x, m[j].y - truth[i][j].y)),
        ),
      );
    expect(err(smooth)).toBeLessThan(err(noisy) * 0.6);
    // Where the sweep is fastest (about 10 px a frame), the mouth is where it really is, within a pixel.
    for (const i of [0, 25, 50]) expect(Math.abs(anchorsFromMesh(smooth[i]).mouth.x - anchorsFromMesh(truth[i]).mouth.x)).toBeLessThan(1);
  });

  it("fits a similarity exactly and fills frames without a face from their neighbours", () => {
    const a = syntheticMesh({ x: 100, y: 100, height: 100 });
    const b = syntheticMesh({ x: 130, y: 90, height: 120, roll: 0.1 });
    const s = fitSimilarity(a, b);
    expect(Math.hypot(s.a, s.b)).toBeCloseTo(1.2, 6);
    expect(Math.atan2(s.b, s.a)).toBeCloseTo(0.1, 6);
    const filled = fillGaps([null, a, null, b, null]);
    expect(filled[0]).toBe(a);
    expect(filled[2][MESH.noseTip].x).toBeCloseTo((a[MESH.noseTip].x + b[MESH.noseTip].x) / 2, 6);
    expect(filled[4]).toBe(b);
    expect(() => fillGaps([null, null])).toThrow(/no frame/);
  });
});

describe("chooseLoop", () => {
  const still = (gap: number, x = 300) => syntheticMesh({ x, y: 300, height: 200, gap });

  it("picks the stretch with the lips closed over one where they talk", () => {
    // 20 s at 5 samples a second: talking for 10 s, then 10 s with the mouth at rest.
    const r = noise(11);
    const samples = Array.from({ length: 100 }, (_, i) => (i < 50 ? still(0.25 + 0.2 * r()) : still(0.01)));
    const c = chooseLoop(samples, 0.2, { maxSeconds: 8, minSeconds: 1 })!;
    expect(c.first).toBeGreaterThanOrEqual(50);
    expect(c.seconds).toBeCloseTo(8, 6);
    expect(c.gap).toBeLessThan(0.05);
  });

  it("among closed-lip stretches prefers the one that moves least; a short video is used whole", () => {
    const samples = Array.from({ length: 100 }, (_, i) => still(0, i < 50 ? 300 + 30 * Math.sin(i) : 300 + Math.sin(i / 10)));
    expect(chooseLoop(samples, 0.2, { maxSeconds: 8, minSeconds: 1 })!.first).toBeGreaterThanOrEqual(50);
    const short = chooseLoop(
      Array.from({ length: 15 }, () => still(0)),
      0.2,
      { maxSeconds: 8, minSeconds: 1 },
    )!;
    expect([short.first, short.last, short.seconds]).toEqual([0, 14, 3]);
  });

  it("bridges a short tracking gap, never a long one, and gives up without a steady face", () => {
    const s = Array.from({ length: 30 }, () => still(0)) as (Point[] | null)[];
    s[10] = null;
    s[11] = null;
    expect(chooseLoop(s, 0.2, { maxSeconds: 8, minSeconds: 1 })).toMatchObject({ first: 0, last: 29 });
    for (let i = 8; i < 20; i++) s[i] = null;
    expect(chooseLoop(s, 0.2, { maxSeconds: 8, minSeconds: 1 })).toMatchObject({ first: 20, last: 29 });
    expect(chooseLoop([null, null, still(0), null, null], 0.2, { maxSeconds: 8, minSeconds: 1 })).toBeNull();
  });
});

describe("loopCrop", () => {
  it("frames every frame's face like a photo, in one square inside the video", () => {
    const meshes = Array.from({ length: 20 }, (_, i) => syntheticMesh({ x: 900 + 6 * i, y: 500, height: 300, roll: 0.05 }));
    const { transform: t, notes } = loopCrop(meshes, FRAMINGS.head, { width: 1920, height: 1080 }, 512);
    expect(notes).toEqual([]);
    expect(t.roll).toBeCloseTo(0.05, 6);
    for (const m of meshes) {
      const a = anchorsFromMesh(m.map((p) => t.toOutput(p)));
      expect(a.face.x).toBeGreaterThan(0.25 * 512);
      expect(a.face.x).toBeLessThan(0.75 * 512);
      // The union of per-frame squares: a face is a little smaller than a photo's 45%.
      expect(a.face.height / 512).toBeGreaterThan(0.36);
      expect(a.face.height / 512).toBeLessThan(0.46);
      expect(Math.abs(a.rightEye.y - a.leftEye.y)).toBeLessThan(0.5);
    }
    const b = t.photoBounds(512);
    expect(b.x0).toBeGreaterThanOrEqual(0);
    expect(b.y0).toBeGreaterThanOrEqual(0);
    expect(b.x1).toBeLessThanOrEqual(1920);
    expect(b.y1).toBeLessThanOrEqual(1080);
  });

  it("stays inside a tightly framed video and says so", () => {
    const meshes = [syntheticMesh({ x: 180, y: 220, height: 260 })];
    const { transform: t, notes } = loopCrop(meshes, FRAMINGS.head, { width: 360, height: 480 }, 512);
    expect(notes.join()).toMatch(/framed tighter/);
    const b = t.photoBounds(512);
    expect(b.x0).toBeGreaterThanOrEqual(-1e-6);
    expect(b.x1).toBeLessThanOrEqual(360 + 1e-6);
    expect(b.y0).toBeGreaterThanOrEqual(-1e-6);
    expect(b.y1).toBeLessThanOrEqual(480 + 1e-6);
  });
});

describe("FaceTracks", () => {
  it("follows the person in view longest, through the samples where the detector lost them", () => {
    const tracks = new FaceTracks();
    for (let i = 0; i < 20; i++) {
      const big = syntheticMesh({ x: 300 + 3 * i, y: 300, height: 240 });
      const small = syntheticMesh({ x: 80, y: 320, height: 150 });
      // The big face is missed every third sample; the small one is only there in the first five.
      tracks.add(i, [...(i % 3 === 2 ? [] : [big]), ...(i < 5 ? [small] : [])]);
    }
    const main = tracks.main(20);
    expect(main.map((m) => m !== null)).toEqual(Array.from({ length: 20 }, (_, i) => i % 3 !== 2));
    expect(main[0]![MESH.noseTip].x).toBeGreaterThan(250);
    expect(main[19]![MESH.noseTip].x).toBeGreaterThan(300);
  });
});

describe("rgbToI420", () => {
  it("gives exactly the renderer's conversion", () => {
    const r = noise(5);
    const w = 36,
      h = 22;
    const rgb = Uint8Array.from({ length: w * h * 3 }, () => Math.floor((r() + 1) * 127.9));
    const rgba = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) rgba.set([rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2], 255], i * 4);
    expect(Buffer.from(rgbToI420(rgb, w, h)).equals(Buffer.from(rgbaToI420(rgba, w, h)))).toBe(true);
  });
});
