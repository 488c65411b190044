// What an image is, from its first bytes: PNG (signature and IHDR) or JPEG (SOI and the first
// start-of-frame marker). Anything else is not a portrait. Web-standard, no decoding.
import type { PortraitContentType } from "../../shared/wire/portraits.ts";

export interface SniffedImage {
  contentType: PortraitContentType;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  if (bytes.length >= 24 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    // The first chunk is IHDR: width and height big-endian at 16 and 20.
    if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const width = view.getUint32(16);
    const height = view.getUint32(20);
    return width > 0 && height > 0 ? { contentType: "image/png", width, height } : null;
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegSize(bytes);
  return null;
}

/** Walks the JPEG's marker segments to the first SOFn (not DHT C4, JPG C8, DAC CC). */
function jpegSize(bytes: Uint8Array): SniffedImage | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (length < 2) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = (bytes[at + 5] << 8) | bytes[at + 6];
      const width = (bytes[at + 7] << 8) | bytes[at + 8];
      return width > 0 && height > 0 ? { contentType: "image/jpeg", width, height } : null;
    }
    if (marker === 0xda || marker === 0xd9) return null; // image data before any frame header
    at += 2 + length;
  }
  return null;
}
