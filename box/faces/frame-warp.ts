// Implements: placing the photo in the square output frame (issue 10 item 2: crop and frame):
// a similarity transform (scale, turn to level the eyes, shift) from output pixels to photo
// pixels, bilinear sampling, and soft padding where the frame reaches past the photo's edge.
import type { Point } from "../render/prepared-face.ts";

/** Output pixel (continuous coordinates) <-> photo pixel, as a similarity transform. */
export class FrameTransform {
  private readonly cos: number;
  private readonly sin: number;

  /**
   * @param pivot photo point the rotation turns about
   * @param roll the photo's tilt (radians, clockwise on screen) that the frame removes
   * @param anchor upright point (photo pixels, rotated about `pivot`) that lands on `target`
   * @param scale output pixels per photo pixel
   */
  constructor(
    readonly pivot: Point,
    readonly roll: number,
    readonly anchor: Point,
    readonly target: Point,
    readonly scale: number,
  ) {
    this.cos = Math.cos(roll);
    this.sin = Math.sin(roll);
  }

  /** Photo point -> the same point upright (turned by -roll about the pivot), in photo pixels. */
  upright(p: Point): Point {
    const dx = p.x - this.pivot.x;
    const dy = p.y - this.pivot.y;
    return { x: this.pivot.x + this.cos * dx + this.sin * dy, y: this.pivot.y - this.sin * dx + this.cos * dy };
  }

  /** Photo point -> output pixel coordinates. */
  toOutput(p: Point): Point {
    const q = this.upright(p);
    return { x: (q.x - this.anchor.x) * this.scale + this.target.x, y: (q.y - this.anchor.y) * this.scale + this.target.y };
  }

  /** Output point -> photo pixel coordinates. */
  toPhoto(o: Point): Point {
    const qx = (o.x - this.target.x) / this.scale + this.anchor.x - this.pivot.x;
    const qy = (o.y - this.target.y) / this.scale + this.anchor.y - this.pivot.y;
    return { x: this.pivot.x + this.cos * qx - this.sin * qy, y: this.pivot.y + this.sin * qx + this.cos * qy };
  }

  /** The photo pixels an output frame of size x size needs (not clipped to the photo). */
  photoBounds(size: number): { x0: number; y0: number; x1: number; y1: number } {
    const c = [
      [0, 0],
      [size, 0],
      [0, size],
      [size, size],
    ].map(([x, y]) => this.toPhoto({ x, y }));
    return {
      x0: Math.min(...c.map((p) => p.x)),
      y0: Math.min(...c.map((p) => p.y)),
      x1: Math.max(...c.map((p) => p.x)),
      y1: Math.max(...c.map((p) => p.y)),
    };
  }
}

export interface Region {
  /** Photo pixels the region covers. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** The region's pixels resized to rw x rh, RGB. */
  rgb: Uint8Array;
  rw: number;
  rh: number;
}

export interface WarpResult {
  rgba: Uint8Array;
  /** Per output pixel, how far (output pixels) its source lies outside the photo; 0 inside. */
  outside: Float32Array;
  /** Output pixels whose source lies outside the photo. */
  paddedPixels: number;
}

/**
 * Samples the output frame from a region of the photo (bilinear; positions past the region's
 * edge take the edge colour and are reported in `outside`).
 */
export function warpToFrame(region: Region, t: FrameTransform, size: number): WarpResult {
  const { rgb, rw, rh } = region;
  const sx = rw / region.width;
  const sy = rh / region.height;
  const rgba = new Uint8Array(size * size * 4);
  const outside = new Float32Array(size * size);
  let padded = 0;
  // The transform is affine: step the source position along each row.
  const o00 = t.toPhoto({ x: 0.5, y: 0.5 });
  const o10 = t.toPhoto({ x: 1.5, y: 0.5 });
  const o01 = t.toPhoto({ x: 0.5, y: 1.5 });
  const dxu = (o10.x - o00.x) * sx,
    dyu = (o10.y - o00.y) * sy;
  const dxv = (o01.x - o00.x) * sx,
    dyv = (o01.y - o00.y) * sy;
  const baseX = (o00.x - region.left) * sx - 0.5;
  const baseY = (o00.y - region.top) * sy - 0.5;
  for (let v = 0; v < size; v++) {
    let x = baseX + v * dxv;
    let y = baseY + v * dyv;
    for (let u = 0; u < size; u++, x += dxu, y += dyu) {
      const i = v * size + u;
      // Distance of the sample centre past the region (in region pixels, about output pixels).
      const d = Math.max(0, -0.5 - x, x - (rw - 0.5), -0.5 - y, y - (rh - 0.5));
      if (d > 0) {
        outside[i] = d;
        padded++;
      }
      // Past the edge: the edge colour (a mirror would reflect a face near the edge into a ghost).
      const cx = x < 0 ? 0 : Math.min(x, rw - 1);
      const cy = y < 0 ? 0 : Math.min(y, rh - 1);
      const x0 = Math.floor(cx),
        y0 = Math.floor(cy);
      const x1 = Math.min(x0 + 1, rw - 1),
        y1 = Math.min(y0 + 1, rh - 1);
      const fx = cx - x0,
        fy = cy - y0;
      const a = (y0 * rw + x0) * 3,
        b = (y0 * rw + x1) * 3,
        c = (y1 * rw + x0) * 3,
        e = (y1 * rw + x1) * 3;
      for (let k = 0; k < 3; k++) {
        const top = rgb[a + k] + (rgb[b + k] - rgb[a + k]) * fx;
        const bot = rgb[c + k] + (rgb[e + k] - rgb[c + k]) * fx;
        rgba[i * 4 + k] = Math.round(top + (bot - top) * fy);
      }
      rgba[i * 4 + 3] = 255;
    }
  }
  return { rgba, outside, paddedPixels: padded };
}

/**
 * Softens the padding: pixels outside the photo fade from the stretched edge colour into a
 * blurred copy of the frame over `ramp` pixels, so edge streaks read as an out-of-focus
 * background rather than lines.
 */
export function softenPadding(rgba: Uint8Array, blurredRgb: Uint8Array, outside: Float32Array, ramp: number): void {
  for (let i = 0; i < outside.length; i++) {
    const d = outside[i];
    if (d <= 0) continue;
    const t = Math.min(1, d / ramp);
    const w = t * t * (3 - 2 * t);
    for (let k = 0; k < 3; k++) rgba[i * 4 + k] = Math.round(rgba[i * 4 + k] * (1 - w) + blurredRgb[i * 3 + k] * w);
  }
}

/** RGB (3 bytes per pixel) of an RGBA image. */
export function rgbOf(rgba: Uint8Array): Uint8Array {
  const n = rgba.length / 4;
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    out[i * 3] = rgba[i * 4];
    out[i * 3 + 1] = rgba[i * 4 + 1];
    out[i * 3 + 2] = rgba[i * 4 + 2];
  }
  return out;
}
