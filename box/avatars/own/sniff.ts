// Implements: POST /api/avatar part `file` ("PNG or JPG image, or MP4, MOV or WEBM video"): what
// a file is, from its bytes rather than its name, and the cheap structural checks that refuse a
// truncated or polyglot image and a decompression bomb before anything decodes it.

export type SniffedKind = "png" | "jpeg" | "mp4" | "mov" | "webm" | "mkv";
export type Family = "image" | "video";

export const IMAGE_EXTENSIONS: Record<string, SniffedKind> = { png: "png", jpg: "jpeg", jpeg: "jpeg" };
export const VIDEO_EXTENSIONS: Record<string, SniffedKind> = { mp4: "mp4", mov: "mov", webm: "webm" };
export const TAKE_EXTENSIONS = ["webm", "mp4", "mov", "mkv"] as const;

export const familyOf = (k: SniffedKind): Family => (k === "png" || k === "jpeg" ? "image" : "video");

/** Lowercased extension after the last dot of the last path segment, or "". */
export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot >= 0 ? base.slice(dot + 1).toLowerCase() : "";
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/** The container the magic bytes say, or null. ISO-BMFF brand `qt  ` is QuickTime (MOV). */
export function sniff(b: Uint8Array): SniffedKind | null {
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 3) === "PNG" && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a)
    return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 12 && ascii(b, 4, 4) === "ftyp") return ascii(b, 8, 4) === "qt  " ? "mov" : "mp4";
  // QuickTime files from old cameras may start with a `moov`/`mdat`/`wide` atom instead of `ftyp`.
  if (b.length >= 8 && ["moov", "mdat", "wide", "free"].includes(ascii(b, 4, 4))) return "mov";
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) {
    // EBML: the DocType says webm or matroska; look for it in the header.
    const head = ascii(b, 0, Math.min(b.length, 64));
    return head.includes("webm") ? "webm" : "mkv";
  }
  return null;
}

export interface ImageHeader {
  width: number;
  height: number;
}

export class BadImage extends Error {}

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

/** Bytes after the end of an image allowed before it counts as a second file glued on. */
export const TRAILING_TOLERANCE = 16;

/** Walks the PNG's chunks to IEND: dimensions, and a refusal for a truncated or glued-on file. */
export function pngHeader(b: Uint8Array): ImageHeader {
  if (b.length < 33 || ascii(b, 12, 4) !== "IHDR") throw new BadImage("the PNG has no image header (IHDR).");
  const width = u32(b, 16);
  const height = u32(b, 20);
  let at = 8;
  for (;;) {
    if (at + 12 > b.length) throw new BadImage("the PNG is truncated (it ends before its IEND chunk).");
    const len = u32(b, at);
    const type = ascii(b, at + 4, 4);
    const next = at + 12 + len;
    if (next > b.length) throw new BadImage("the PNG is truncated (a chunk runs past the end of the file).");
    if (type === "IEND") {
      trailing(b, next, "PNG");
      break;
    }
    at = next;
  }
  if (width === 0 || height === 0) throw new BadImage("the PNG has no pixels.");
  return { width, height };
}

/**
 * Walks the JPEG's segments (and the entropy-coded data after each SOS) to EOI, taking the
 * frame size from the first SOFn. An embedded EXIF thumbnail sits inside APP1, so it is skipped whole.
 */
export function jpegHeader(b: Uint8Array): ImageHeader {
  let at = 2;
  let size: ImageHeader | null = null;
  for (;;) {
    while (at < b.length && b[at] === 0xff && b[at + 1] === 0xff) at++; // fill bytes
    if (at + 2 > b.length) throw new BadImage("the JPEG is truncated (it ends before its end-of-image marker).");
    if (b[at] !== 0xff) throw new BadImage("the JPEG is damaged (a segment does not start where the previous one ended).");
    const marker = b[at + 1];
    if (marker === 0xd9) {
      trailing(b, at + 2, "JPEG");
      break;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 4 > b.length) throw new BadImage("the JPEG is truncated.");
    const len = u16(b, at + 2);
    const end = at + 2 + len;
    if (len < 2 || end > b.length) throw new BadImage("the JPEG is truncated (a segment runs past the end of the file).");
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof && !size && len >= 7) size = { height: u16(b, at + 5), width: u16(b, at + 7) };
    at = end;
    if (marker === 0xda) {
      // Entropy-coded data: runs until a marker other than a stuffed 0xFF00 or a restart.
      while (
        at + 1 < b.length &&
        !(b[at] === 0xff && b[at + 1] !== 0x00 && !(b[at + 1] >= 0xd0 && b[at + 1] <= 0xd7) && b[at + 1] !== 0xff)
      )
        at++;
      if (at + 1 >= b.length) throw new BadImage("the JPEG is truncated (its image data has no end-of-image marker).");
    }
  }
  if (!size) throw new BadImage("the JPEG has no frame header (SOF), so it holds no image.");
  if (size.width === 0 || size.height === 0)
    throw new BadImage("the JPEG has no pixels (or a size it only declares later, which is not supported).");
  return size;
}

function trailing(b: Uint8Array, end: number, what: string): void {
  let extra = 0;
  for (let i = end; i < b.length; i++) if (b[i] !== 0) extra++;
  if (extra > TRAILING_TOLERANCE) {
    throw new BadImage(
      `the file carries ${b.length - end} bytes after the end of its ${what} image (a second file glued on, such as a zip or a motion photo's video); upload the image alone.`,
    );
  }
}

export function imageHeader(kind: "png" | "jpeg", b: Uint8Array): ImageHeader {
  return kind === "png" ? pngHeader(b) : jpegHeader(b);
}
