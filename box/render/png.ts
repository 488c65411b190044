// A minimal PNG encoder (8-bit RGBA, zlib from node:zlib) for avatar preview stills.
import { crc32 } from "../../shared/util/crc32.ts";
import { deflateSync } from "node:zlib";
import { i420Size, i420ToRgba } from "./i420.ts";

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Encodes a still as PNG. `pixels` is RGBA (width*height*4 bytes) or I420
 * (width*height*3/2 bytes); the length says which.
 */
export function encodePng(pixels: Uint8Array, width: number, height: number): Uint8Array {
  let rgba: Uint8Array;
  if (pixels.length === width * height * 4) rgba = pixels;
  else if (width % 2 === 0 && height % 2 === 0 && pixels.length === i420Size(width, height)) {
    rgba = i420ToRgba(pixels, width, height);
  } else throw new Error(`encodePng: ${pixels.length} bytes is neither RGBA nor I420 for ${width}x${height}`);

  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    // Filter type 1 (Sub): cheap and compresses drawn faces well.
    const o = y * (stride + 1);
    raw[o] = 1;
    const row = rgba.subarray(y * stride, (y + 1) * stride);
    for (let i = 0; i < stride; i++) raw[o + 1 + i] = (row[i] - (i >= 4 ? row[i - 4] : 0)) & 0xff;
  }
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type RGBA, deflate, adaptive filters, no interlace
  const parts = [PNG_SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 6 })), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
