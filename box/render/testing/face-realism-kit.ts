// Measuring rendered faces with the project's own face landmarker (issue 25 item 5): how open
// the landmarker finds the lips of a rendered frame, a spoken sentence's mouth track to render,
// and how far a rest frame's mouth region is from the photo (mean absolute difference, SSIM).
// Used by face-realism.test.ts and by the docs' contact sheets (face-realism-sheets.ts).
import type { DetectedFace } from "../../faces/face-landmarker.ts";
import { MESH } from "../../faces/mesh-anchors.ts";
import { mouthTrackFromPhonemes } from "../../lipsync/mouth-track.ts";
import type { MouthParams } from "../frame-params.ts";
import { i420ToRgba } from "../i420.ts";
import type { FaceAnchors } from "../prepared-face.ts";

/** RGB (3 bytes per pixel) of an I420 frame, what the landmarker takes. */
export function i420ToRgb(i420: Uint8Array, w: number, h: number): Uint8Array {
  const rgba = i420ToRgba(i420, w, h);
  const rgb = new Uint8Array(w * h * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) rgb.set(rgba.subarray(i, i + 3), j);
  return rgb;
}

/**
 * How far apart the landmarker finds the lips' inner edges over the middle of the mouth, in
 * mouth widths (corner to corner). About 0 for closed lips (the mesh's own noise is about 0.02).
 */
export function detectedOpening(face: DetectedFace): number {
  const mid = [4, 5, 6];
  const gap = mid.reduce((s, k) => s + face.mesh[MESH.lowerInner[k]].y - face.mesh[MESH.upperInner[k]].y, 0) / mid.length;
  const [r, l] = MESH.mouthCorners.map((i) => face.mesh[i]);
  return gap / Math.hypot(l.x - r.x, l.y - r.y);
}

/**
 * "Hello, how are you doing today?" as a voice engine would time it (IPA, ms), with a pause
 * after "hello": a sentence's worth of open, half-open and closed mouths (m/p-free, so the
 * lips close only in the pause and at the ends).
 */
export const SENTENCE: { phoneme: string; startMs: number; endMs: number }[] = (() => {
  const spoken: [string, number][] = [
    ["h", 60],
    ["ə", 70],
    ["l", 60],
    ["əʊ", 180],
    ["", 220],
    ["h", 60],
    ["aʊ", 170],
    ["ɑː", 150],
    ["j", 50],
    ["uː", 120],
    ["d", 50],
    ["uː", 90],
    ["ɪ", 70],
    ["ŋ", 70],
    ["t", 60],
    ["ə", 70],
    ["d", 50],
    ["eɪ", 220],
  ];
  const out: { phoneme: string; startMs: number; endMs: number }[] = [];
  let t = 200;
  for (const [phoneme, ms] of spoken) {
    if (phoneme) out.push({ phoneme, startMs: t, endMs: t + ms });
    t += ms;
  }
  return out;
})();

/** The sentence's mouth track at 25 fps (the live pipeline's own coarticulation). */
export function sentenceTrack(): MouthParams[] {
  const end = SENTENCE[SENTENCE.length - 1].endMs + 200;
  return mouthTrackFromPhonemes(SENTENCE, end, 25);
}

/** Pearson correlation of two equally long series. */
export function correlation(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0,
    saa = 0,
    sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** The mouth region of a face: the lips with a margin (corner to corner plus a fifth, lip line ± 0.35 widths). */
export function mouthRegion(a: FaceAnchors, w: number, h: number): { x0: number; y0: number; x1: number; y1: number } {
  const m = a.mouth;
  return {
    x0: Math.max(0, Math.round(m.x - 0.6 * m.width)),
    x1: Math.min(w, Math.round(m.x + 0.6 * m.width)),
    y0: Math.max(0, Math.round(m.y - 0.35 * m.width)),
    y1: Math.min(h, Math.round(m.y + 0.35 * m.width)),
  };
}

/** Mean absolute difference of luma over a region (levels). */
export function lumaMad(a: Uint8Array, b: Uint8Array, w: number, r: ReturnType<typeof mouthRegion>): number {
  let s = 0,
    n = 0;
  for (let y = r.y0; y < r.y1; y++) for (let x = r.x0; x < r.x1; x++, n++) s += Math.abs(a[y * w + x] - b[y * w + x]);
  return s / n;
}

/** Mean SSIM of luma over a region, on 8x8 windows with stride 4 (the usual constants for 8-bit). */
export function lumaSsim(a: Uint8Array, b: Uint8Array, w: number, r: ReturnType<typeof mouthRegion>): number {
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0,
    count = 0;
  for (let y0 = r.y0; y0 + 8 <= r.y1; y0 += 4) {
    for (let x0 = r.x0; x0 + 8 <= r.x1; x0 += 4) {
      let ma = 0,
        mb = 0;
      for (let y = y0; y < y0 + 8; y++)
        for (let x = x0; x < x0 + 8; x++) {
          ma += a[y * w + x];
          mb += b[y * w + x];
        }
      ma /= 64;
      mb /= 64;
      let va = 0,
        vb = 0,
        cov = 0;
      for (let y = y0; y < y0 + 8; y++) {
        for (let x = x0; x < x0 + 8; x++) {
          const da = a[y * w + x] - ma,
            db = b[y * w + x] - mb;
          va += da * da;
          vb += db * db;
          cov += da * db;
        }
      }
      va /= 63;
      vb /= 63;
      cov /= 63;
      sum += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      count++;
    }
  }
  return sum / count;
}
