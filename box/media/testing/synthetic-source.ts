// A frame source for tests: a moving square on grey, a tone then silence, and markers (a white
// frame and a 1 kHz beep starting at the same frame index) for measuring the A/V offset.
import type { FramePull } from "../media-session.ts";

export type SyntheticOptions = {
  width?: number;
  height?: number;
  fps?: number;
  sampleRate?: number;
  /** Frames [0, toneFrames) carry a 440 Hz tone; later frames are silent except the markers. */
  toneFrames?: number;
  /** Marker frames: a white picture and the onset of a 60 ms beep on the same timeline index. */
  markerFrames?: number[];
};

export const GREY = 60;
export const WHITE = 235;

export function syntheticSource(options: SyntheticOptions = {}): FramePull {
  const w = options.width ?? 512;
  const h = options.height ?? 512;
  const fps = options.fps ?? 25;
  const rate = options.sampleRate ?? 48_000;
  const perFrame = rate / fps;
  const beepSamples = Math.round(rate * 0.06);
  const markers = new Set(options.markerFrames ?? []);
  const toneFrames = options.toneFrames ?? 0;
  return (index) => {
    const i420 = new Uint8Array((w * h * 3) / 2);
    i420.fill(128, w * h); // neutral chroma
    const marker = markers.has(index);
    i420.fill(marker ? WHITE : GREY, 0, w * h);
    if (!marker) {
      const size = 64;
      const x0 = (index * 8) % (w - size);
      const y0 = (h - size) >> 1;
      for (let y = y0; y < y0 + size; y++) i420.fill(WHITE, y * w + x0, y * w + x0 + size);
    }
    const pcm = new Int16Array(perFrame);
    for (let s = 0; s < perFrame; s++) {
      const n = index * perFrame + s; // one timeline: sample n belongs to frame floor(n / perFrame)
      if (index < toneFrames) pcm[s] = Math.round(0.3 * 32767 * Math.sin((2 * Math.PI * 440 * n) / rate));
      const beepStart = beepOnset(n, markers, perFrame, beepSamples);
      if (beepStart !== null) pcm[s] = Math.round(0.5 * 32767 * Math.sin((2 * Math.PI * 1000 * (n - beepStart)) / rate));
    }
    return { i420, pcm48k: pcm };
  };
}

function beepOnset(n: number, markers: Set<number>, perFrame: number, length: number): number | null {
  for (let f = Math.floor(n / perFrame); f >= 0 && (Math.floor(n / perFrame) - f) * perFrame < length + perFrame; f--) {
    const start = f * perFrame;
    if (markers.has(f) && n >= start && n < start + length) return start;
  }
  return null;
}
