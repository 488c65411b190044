// Implements: RGB (3 bytes a pixel, as ffmpeg's rgb24) to I420, for the frames of a video loop:
// the same BT.601 limited-range formula and rounding as box/render/i420.ts `rgbaToI420` (tested
// byte for byte), written as flat loops because a loop converts hundreds of frames.

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

export function rgbToI420(rgb: Uint8Array, width: number, height: number, out?: Uint8Array): Uint8Array {
  if (width % 2 || height % 2 || width <= 0 || height <= 0) throw new Error(`I420 needs positive even dimensions, got ${width}x${height}`);
  if (rgb.length < width * height * 3) throw new Error(`rgbToI420: ${rgb.length} bytes is not RGB ${width}x${height}`);
  const cw = width / 2;
  const uOff = width * height;
  const vOff = uOff + cw * (height / 2);
  const dst = out ?? new Uint8Array(vOff + cw * (height / 2));
  for (let p = 0, i = 0; p < uOff; p++, i += 3) {
    dst[p] = clamp8(16 + (65.481 * rgb[i] + 128.553 * rgb[i + 1] + 24.966 * rgb[i + 2]) / 255);
  }
  const row = width * 3;
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const a = (cy * 2 * width + cx * 2) * 3;
      const c = a + row;
      const r = (rgb[a] + rgb[a + 3] + rgb[c] + rgb[c + 3]) / 4;
      const g = (rgb[a + 1] + rgb[a + 4] + rgb[c + 1] + rgb[c + 4]) / 4;
      const b = (rgb[a + 2] + rgb[a + 5] + rgb[c + 2] + rgb[c + 5]) / 4;
      dst[uOff + cy * cw + cx] = clamp8(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255);
      dst[vOff + cy * cw + cx] = clamp8(128 + (112 * r - 93.786 * g - 18.214 * b) / 255);
    }
  }
  return dst;
}
