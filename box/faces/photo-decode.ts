// Implements: decoding an uploaded photo (issue 10 item 2 and "Bad input"): sharp (libvips from
// npm's @img/* packages) reads the header first, refuses what is not a JPEG/PNG/WebP or is over
// the pixel limit before any pixel is decoded, applies the EXIF orientation, and hands out RGB.
import sharp, { type Metadata, type Sharp } from "sharp";
import { PhotoFaceError } from "./photo-error.ts";

export const PHOTO_LIMITS = {
  /**
   * Largest photo accepted, in pixels (width x height, checked from the header before
   * decoding): 50 MP takes a full-resolution 48/50-MP phone photo (8160x6120) and refuses a
   * 20000x20000 decompression bomb.
   */
  maxPixels: 50_000_000,
  /** Smallest side accepted, in pixels. */
  minSide: 64,
  /** Faces are looked for on a copy whose longer side is at most this (the mesh needs no more). */
  detectSide: 1600,
  formats: ["jpeg", "png", "webp"] as readonly string[],
} as const;

export interface PhotoHeader {
  /** Size after the EXIF orientation is applied. */
  width: number;
  height: number;
  format: string;
}

export interface RgbImage {
  rgb: Uint8Array;
  width: number;
  height: number;
}

const mp = (px: number) => `${Math.round(px / 1e5) / 10} MP`;

function readable(err: unknown): PhotoFaceError {
  if (err instanceof PhotoFaceError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(msg)) {
    return new PhotoFaceError(`The photo is too large: the limit is ${mp(PHOTO_LIMITS.maxPixels)}.`, { cause: err });
  }
  if (/unsupported image format|not a known file format/i.test(msg)) {
    return new PhotoFaceError("The file is not an image we can read: upload a JPEG, PNG or WebP photo.", { cause: err });
  }
  return new PhotoFaceError(`The photo could not be decoded; the file looks damaged or truncated (${msg.split("\n")[0].trim()}).`, {
    cause: err,
  });
}

/** A decoder for the photo: the pixel limit again (belt and braces), truncation is an error. */
function open(bytes: Uint8Array): Sharp {
  return sharp(bytes, { limitInputPixels: PHOTO_LIMITS.maxPixels, failOn: "truncated" }).autoOrient();
}

/** Reads and checks the header only (no pixel is decoded). */
export async function readPhotoHeader(bytes: Uint8Array): Promise<PhotoHeader> {
  if (bytes.length === 0) throw new PhotoFaceError("The file is empty.");
  let meta: Metadata;
  try {
    // No pixel limit here: only the header is read, so the refusal below can name the size.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw readable(err);
  }
  const format = meta.format ?? "unknown";
  if (!PHOTO_LIMITS.formats.includes(format)) {
    throw new PhotoFaceError(`The file is a ${format.toUpperCase()} image, not a photo we accept: upload a JPEG, PNG or WebP.`);
  }
  const { width = 0, height = 0 } = meta;
  if (width * height > PHOTO_LIMITS.maxPixels) {
    throw new PhotoFaceError(
      `The photo is too large: ${width}x${height} pixels (${mp(width * height)}) is over the ${mp(PHOTO_LIMITS.maxPixels)} limit.`,
    );
  }
  if (Math.min(width, height) < PHOTO_LIMITS.minSide) {
    throw new PhotoFaceError(
      `The photo is too small (${width}x${height} pixels); a face needs at least ${PHOTO_LIMITS.minSide} pixels a side.`,
    );
  }
  const turned = (meta.orientation ?? 1) >= 5;
  return { width: turned ? height : width, height: turned ? width : height, format };
}

/** The whole photo, upright, at most `PHOTO_LIMITS.detectSide` on its longer side. */
export async function decodeForDetection(bytes: Uint8Array, header: PhotoHeader): Promise<RgbImage & { scale: number }> {
  const side = PHOTO_LIMITS.detectSide;
  try {
    const { data, info } = await open(bytes)
      .resize({ width: side, height: side, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    return {
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
      scale: info.width / header.width,
    };
  } catch (err) {
    throw readable(err);
  }
}

/** A region of the upright photo (its pixels), resized to outW x outH. */
export async function decodeRegion(
  bytes: Uint8Array,
  region: { left: number; top: number; width: number; height: number },
  outW: number,
  outH: number,
): Promise<RgbImage> {
  try {
    const { data, info } = await open(bytes)
      .extract(region)
      .resize(outW, outH, { fit: "fill", kernel: "lanczos3" })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (err) {
    throw readable(err);
  }
}

/** Gaussian blur of an RGB image (used to soften padding where the frame leaves the photo). */
export async function blurRgb(img: RgbImage, sigma: number): Promise<Uint8Array> {
  const data = await sharp(img.rgb, { raw: { width: img.width, height: img.height, channels: 3 } })
    .blur(sigma)
    .raw()
    .toBuffer();
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}
