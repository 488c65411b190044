// I420 <-> RGBA with BT.601 limited-range coefficients: what ffmpeg's yuv420p and VP8
// decoders assume when a stream says nothing about its colour space.

export function i420Size(width: number, height: number): number {
  return width * height + 2 * (width / 2) * (height / 2);
}

function checkEven(width: number, height: number): void {
  if (width % 2 || height % 2 || width <= 0 || height <= 0) {
    throw new Error(`I420 needs positive even dimensions, got ${width}x${height}`);
  }
}

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** RGB (0..255) to limited-range Y'CbCr. */
export function rgbToYuv(r: number, g: number, b: number): [number, number, number] {
  return [
    16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255,
    128 + (-37.797 * r - 74.203 * g + 112 * b) / 255,
    128 + (112 * r - 93.786 * g - 18.214 * b) / 255,
  ];
}

/** RGBA (alpha ignored) to I420; chroma is the mean of each 2x2 block. */
export function rgbaToI420(rgba: Uint8Array, width: number, height: number, out?: Uint8Array): Uint8Array {
  return packedToI420(rgba, 4, width, height, out);
}

/** RGB (3 bytes a pixel, as ffmpeg's rgb24 and sharp's raw output) to I420, as `rgbaToI420`. */
export function rgbToI420(rgb: Uint8Array, width: number, height: number, out?: Uint8Array): Uint8Array {
  return packedToI420(rgb, 3, width, height, out);
}

/** Flat loops: a video loop converts hundreds of frames. */
function packedToI420(src: Uint8Array, bpp: 3 | 4, width: number, height: number, out?: Uint8Array): Uint8Array {
  checkEven(width, height);
  if (src.length < width * height * bpp) throw new Error(`${src.length} bytes are not ${bpp * 8}-bit pixels of ${width}x${height}`);
  const dst = out ?? new Uint8Array(i420Size(width, height));
  const cw = width / 2;
  const uOff = width * height;
  const vOff = uOff + cw * (height / 2);
  for (let p = 0, i = 0; p < uOff; p++, i += bpp) {
    dst[p] = clamp8(16 + (65.481 * src[i] + 128.553 * src[i + 1] + 24.966 * src[i + 2]) / 255);
  }
  const row = width * bpp;
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const a = (cy * 2 * width + cx * 2) * bpp;
      const c = a + row;
      const r = (src[a] + src[a + bpp] + src[c] + src[c + bpp]) / 4;
      const g = (src[a + 1] + src[a + bpp + 1] + src[c + 1] + src[c + bpp + 1]) / 4;
      const b = (src[a + 2] + src[a + bpp + 2] + src[c + 2] + src[c + bpp + 2]) / 4;
      dst[uOff + cy * cw + cx] = clamp8(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255);
      dst[vOff + cy * cw + cx] = clamp8(128 + (112 * r - 93.786 * g - 18.214 * b) / 255);
    }
  }
  return dst;
}

/** I420 to opaque RGBA (nearest chroma), e.g. for PNG stills. */
export function i420ToRgba(i420: Uint8Array, width: number, height: number, out?: Uint8Array): Uint8Array {
  checkEven(width, height);
  if (i420.length < i420Size(width, height)) throw new Error("I420 buffer too small");
  const dst = out ?? new Uint8Array(width * height * 4);
  const cw = width / 2;
  const uOff = width * height;
  const vOff = uOff + cw * (height / 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = (y >> 1) * cw + (x >> 1);
      const yy = 1.164 * (i420[y * width + x] - 16);
      const u = i420[uOff + c] - 128;
      const v = i420[vOff + c] - 128;
      const o = (y * width + x) * 4;
      dst[o] = clamp8(yy + 1.596 * v);
      dst[o + 1] = clamp8(yy - 0.392 * u - 0.813 * v);
      dst[o + 2] = clamp8(yy + 2.017 * u);
      dst[o + 3] = 255;
    }
  }
  return dst;
}
